// Compiles the server (src/server, and the src/shared it imports) to JavaScript in dist/server and dist/shared,
// file for file, so production starts without compiling TypeScript, in the main thread or in any worker thread.
// esbuild only strips types (tsc checks them: `npm run typecheck`); the layout under dist/ mirrors src/, so relative
// paths (the console at ../../dist/console, the worker entry, the site script) hold in both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src/server', 'src/shared'];
/** Tests, and the harness and fake peers they use, are not part of the server. */
const shipped = (file) =>
  !/\.test\.tsx?$/.test(file) && !file.startsWith(path.join('src', 'server', 'test') + path.sep);

const files = roots.flatMap((dir) =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(dir, file))
    .filter((file) => fs.statSync(path.join(root, file)).isFile() && shipped(file)),
);

/** Builds into `out` (default dist/): out/server, out/shared. Answers the milliseconds it took. */
export async function buildServer(out = path.join(root, 'dist')) {
  const started = Date.now();
  fs.rmSync(path.join(out, 'server'), { recursive: true, force: true });
  fs.rmSync(path.join(out, 'shared'), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: files.filter((file) => file.endsWith('.ts')),
    outdir: out,
    outbase: 'src',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Files that are JavaScript already (the worker entry, the published site's script) are copied as they are.
  for (const file of files.filter((f) => /\.m?js$/.test(f))) {
    const to = path.join(out, path.relative('src', file));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(root, file), to);
  }
  fs.writeFileSync(path.join(out, 'server/.built'), new Date().toISOString());
  return Date.now() - started;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ms = await buildServer();
  console.log(`Built the server in ${ms} ms (dist/server)`);
}
