// `npm start`: builds the console and the server when either is missing or older than its sources, then runs the
// compiled server (dist/server/main.js) in this same process, so that SIGTERM/SIGINT reach its graceful shutdown.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((name) => newest(path.join(p, name))));
}

/** Whether `built` is missing or older than any of `sources` (paths from the root). */
function stale(built, sources) {
  const file = path.join(root, built);
  return !existsSync(file) || Math.max(...sources.map((p) => newest(path.join(root, p)))) > statSync(file).mtimeMs;
}

if (stale('dist/console/index.html', ['src/console', 'src/shared', 'public', 'index.html', 'vite.config.ts'])) {
  console.log('Building the console…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}
if (stale('dist/server/.built', ['src/server', 'src/shared', 'scripts/build-server.mjs'])) {
  console.log('Building the server…');
  await buildServer();
}

await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
