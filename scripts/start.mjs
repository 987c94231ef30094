// `npm start`: builds the console when it is missing or older than its sources, then runs the server
// (TypeScript, through tsx) in this same process so that SIGTERM/SIGINT reach its graceful shutdown.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/console/index.html');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((name) => newest(path.join(p, name))));
}

const sources = ['src/console', 'src/shared', 'public', 'index.html', 'vite.config.ts'].map((p) => path.join(root, p));
if (!existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs) {
  console.log('Building the console…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'src/server/main.ts'));
