/**
 * Long loops over thousands of items (a merge of an import) would otherwise hold the event loop for their whole
 * run: awaiting cached reads only queues microtasks, and no other request is served in between. Awaiting
 * `breathe(i)` on every step lets timers and I/O run once every `every` steps.
 */
export function breathe(step: number, every = 256): Promise<void> | undefined {
  return step % every === every - 1 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}
