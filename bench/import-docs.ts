// Import of real documentation (part of `npm run bench`): the `docs/` folders fastify, undici and pino ship, each
// zipped as its repository holds it and imported into a new space through the API, as a team moving in would;
// median of ROUNDS imports each, server in a process of its own (bench/stall-server.ts), SQLite.
// bench/import.ts measures the same path on 1,000 generated pages; these pages are long, with tables, HTML blocks,
// code and hundreds of links, which generated ones are not.
import fs from 'node:fs';
import path from 'node:path';
import { jsonCaller, median, startStallServer } from './setup.js';
import { zipOf } from '../src/server/test/fixtures.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Every file under `root`, by its path under `docs/` (as the repository holds it). */
function filesUnder(root: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[`docs/${path.relative(root, file)}`] = fs.readFileSync(file);
  }
  return files;
}

const { child: server, started, base } = await startStallServer();
const call = jsonCaller(base, started.token);
const rows: string[] = [];
try {
  for (const pkg of ['fastify', 'undici', 'pino']) {
    const files = filesUnder(path.join('node_modules', pkg, 'docs'));
    const zip = Buffer.from(zipOf(files));
    const markdownBytes = Object.entries(files)
      .filter(([name]) => name.endsWith('.md'))
      .reduce((sum, [, data]) => sum + data.length, 0);
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const space = await call('POST', `/v1/orgs/${started.org}/spaces`, { title: `${pkg} docs` });
      const t = performance.now();
      const res = await fetch(`${base}/v1/spaces/${space.id}/content/import?source=zip`, {
        method: 'POST',
        headers: { authorization: `Bearer ${started.token}`, 'content-type': 'application/zip' },
        body: zip,
      });
      if (res.status !== 201) throw new Error(`${pkg}: import answered ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    rows.push(
      `${pkg.padEnd(8)} ${String(Object.keys(files).length).padStart(3)} files, ${(markdownBytes / 1024).toFixed(0).padStart(4)} KB of markdown: ${median(times).toFixed(0).padStart(6)} ms (median of ${ROUNDS}; ${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
  }
} finally {
  server.kill('SIGTERM');
}
console.log('Import of real documentation (zip into a new space, SQLite):');
for (const row of rows) console.log(`  ${row}`);
