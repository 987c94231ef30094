// The worker threads' entry (see pool.ts). In production (dist/server, built by scripts/build-server.mjs) the tasks
// are JavaScript beside this file; run from the TypeScript sources (`npm run dev`), they are loaded through tsx,
// since a worker does not inherit loader hooks registered in the main thread. The test suite builds the server once
// per run and names its tasks in DOCSPACE_WORKER_TASKS (src/server/test/global-setup.ts).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const compiled = process.env.DOCSPACE_WORKER_TASKS
  ? pathToFileURL(process.env.DOCSPACE_WORKER_TASKS)
  : new URL('./tasks.js', import.meta.url);
let tasks;
if (existsSync(compiled)) {
  tasks = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  tasks = await import('./tasks.ts');
}

/** Runs one task; first tells the pool it has started (its time limit counts from here, not from the queue). */
export default function run({ task, input, started }) {
  if (started) {
    started.postMessage(0);
    started.close();
  }
  return tasks.runTask({ task, input });
}
