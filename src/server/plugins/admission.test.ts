import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { Admission, registerAdmission } from './admission.js';
import { registerErrorHandler } from './errors.js';

const options = { inFlight: 2, maxWaiting: 10, maxWaitMs: 10_000 };

describe('admission', () => {
  it('works on at most inFlight requests, and lets the others in as they finish', async () => {
    const admission = new Admission(options);
    expect(admission.enter('a')).toBe(true);
    expect(admission.enter('a')).toBe(true);
    let third = false;
    const waiting = (admission.enter('a') as Promise<boolean>).then((ok) => (third = ok));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(admission.stats).toEqual({ working: 2, waiting: 1 });
    admission.leave();
    await waiting;
    expect(third).toBe(true);
    expect(admission.stats).toEqual({ working: 2, waiting: 0 });
    admission.leave();
    admission.leave();
    expect(admission.stats).toEqual({ working: 0, waiting: 0 });
  });

  it("takes callers in turn: one caller's flood does not wait in front of another's request", async () => {
    const admission = new Admission(options);
    admission.enter('flood');
    admission.enter('flood');
    const order: string[] = [];
    const wait = (caller: string, label: string) =>
      (admission.enter(caller) as Promise<boolean>).then(() => order.push(label));
    const done = [1, 2, 3, 4].map((n) => wait('flood', `flood ${n}`));
    done.push(wait('other', 'other'));
    for (let i = 0; i < 5; i++) admission.leave();
    await Promise.all(done);
    expect(order).toEqual(['flood 1', 'other', 'flood 2', 'flood 3', 'flood 4']);
  });

  it('refuses at once past maxWaiting, and after maxWaitMs of waiting', async () => {
    const admission = new Admission({ inFlight: 1, maxWaiting: 1, maxWaitMs: 50 });
    admission.enter('a');
    const waited = admission.enter('b') as Promise<boolean>;
    expect(await (admission.enter('c') as Promise<boolean>)).toBe(false);
    expect(await waited).toBe(false);
    expect(admission.stats).toEqual({ working: 1, waiting: 0 });
    // The next one in is let in as the first leaves.
    const next = admission.enter('d') as Promise<boolean>;
    admission.leave();
    expect(await next).toBe(true);
  });

  it('answers 503 with Retry-After to a request refused, and never queues the health check', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    registerAdmission(app, { inFlight: 1, maxWaiting: 0, maxWaitMs: 1000 });
    let release = () => {};
    app.get('/slow', () => new Promise((resolve) => (release = () => resolve({ ok: true }))));
    app.get('/v1/health', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const slow = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 50));
    const refused = await fetch(`${base}/slow`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error.message).toMatch(/busy/);
    expect((await fetch(`${base}/v1/health`)).status).toBe(200);
    release();
    expect((await slow).status).toBe(200);
    // Its slot is free again.
    const again = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect((await again).status).toBe(200);
    await app.close();
  });
});
