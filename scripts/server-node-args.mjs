// The options `npm start` gives node (package.json's `start` script), for what runs the server as `npm start` does
// (the journeys' server, the import benchmark's): one place says them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The `--` options between `node` and the script in package.json's `start` script. */
export function serverNodeArgs() {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const found = /\bnode((?:\s+--\S+)*)\s+scripts\/start\.mjs/.exec(scripts.start);
  if (!found) throw new Error(`package.json's start script does not run node scripts/start.mjs: ${scripts.start}`);
  return found[1].trim().split(/\s+/).filter(Boolean);
}
