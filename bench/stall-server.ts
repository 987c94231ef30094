// Benchmark server (child process of bench/stall.ts, soak.ts, load.ts, editor.ts): the real app on a fresh SQLite
// database (or a fresh PostgreSQL schema with BENCH_SERVER_DIALECT=postgres), with the worker pool configured as
// `npm start` configures it. Prints one JSON line with its port and token, then serves until SIGTERM.
import { buildApp } from '../src/server/app.js';
import { workers } from '../src/server/workers/pool.js';
import { collectWhenIdle } from '../src/server/lib/idle-gc.js';
import { benchDatabase } from './setup.js';

const TOKEN = 'bench-stall-token-0123456789abcdefghijklmnopqrstuvwxyz';
const { config, storage, owner, cleanup } = await benchDatabase(
  TOKEN,
  process.env.BENCH_SERVER_DIALECT === 'postgres' ? 'postgres' : 'sqlite',
);
workers.configure({ timeoutMs: config.workers.timeoutSeconds * 1000 });
const { app } = await buildApp({ config, db: storage.db });
// As main.ts: memory goes back once the server is quiet.
const idle = collectWhenIdle();
app.addHook('onRequest', async () => idle.noteRequest());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ port, token: TOKEN, org: owner.organizationId }));
process.once('SIGTERM', async () => {
  await app.close();
  await cleanup();
  process.exit(0);
});
// bench/soak.ts asks where the memory is (BENCH_MEMORY_LOG=seconds): the JS heap, outside it (buffers), or native.
if (process.env.BENCH_MEMORY_LOG) {
  setInterval(
    () => {
      const m = process.memoryUsage();
      const mb = (n: number) => Math.round(n / 1048576);
      console.error(
        `server memory: rss ${mb(m.rss)} MB, heap used ${mb(m.heapUsed)} / ${mb(m.heapTotal)} MB, external ${mb(m.external)} MB`,
      );
    },
    Number(process.env.BENCH_MEMORY_LOG) * 1000,
  ).unref();
}
