// How `npm start` runs node (package.json's `start` script: the environment it sets and the options it gives node),
// for what runs the server as `npm start` does (the journeys' server, the benchmarks'): one place says them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function startScript() {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const found = /^((?:\w+=\S+\s+)*)exec node((?:\s+--\S+)*)\s+scripts\/start\.mjs$/.exec(scripts.start);
  if (!found)
    throw new Error(`package.json's start script is not [VAR=value…] exec node [--option…] scripts/start.mjs`);
  return found;
}

/** The `--` options between `node` and the script. */
export function serverNodeArgs() {
  return startScript()[2].trim().split(/\s+/).filter(Boolean);
}

/** The environment variables set before `exec node`. */
export function serverEnv() {
  const assignments = startScript()[1].trim().split(/\s+/).filter(Boolean);
  return Object.fromEntries(assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
}
