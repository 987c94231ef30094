// Notifications benchmark (part of `npm run bench`), issue 30: (a) fan-out of one comment in a change request that
// 1,000 people follow (verified addresses, e-mail at once): the comment request's latency beside the same request
// in a change request nobody follows, measured side by side while the fan-out runs, and the time until all 1,000
// notifications exist and their 1,000 e-mails are queued; (b) outbox throughput to a local SMTP server (the
// `smtp-server` package on loopback): messages handed over per second. SQLite, in-process, jobs running.
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median } from './setup.js';
import { startSmtpServer } from '../src/server/test/smtp-server.js';
import { insertUser } from '../src/server/storage/repos/users.js';
import { insertMembership } from '../src/server/storage/repos/members.js';
import { addWatchers } from '../src/server/storage/repos/notifications.js';
import { transaction } from '../src/server/storage/db.js';
import { queueEmail } from '../src/server/domain/mail/outbox.js';
import { renderMail } from '../src/server/domain/mail/templates.js';
import { wakeJobQueues } from '../src/server/jobs/queue.js';
import { newId } from '../src/server/lib/ids.js';
import { nowIso } from '../src/server/lib/time.js';

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const POSTS = Number(process.env.BENCH_POSTS ?? 6);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const TOKEN = 'bench-notify-token-0123456789abcdefghijklmnop';

const smtp = await startSmtpServer();
const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
config.smtp = smtp.config();
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const auth = { authorization: `Bearer ${TOKEN}` };
const db = storage.db;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
async function call(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(base + p, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const count = async (table: 'notifications' | 'email_messages', where?: [string, string]) => {
  let q = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a column of either table
  if (where) q = q.where(where[0] as any, '=', where[1]);
  return Number((await q.executeTakeFirstOrThrow()).n);
};
async function until(test: () => Promise<boolean>, timeoutMs = 600_000) {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  console.log(`\nSeeding ${WATCHERS} members (verified addresses) following a change request…`);
  const org = owner.organizationId;
  const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Fan-out' });
  const busy = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Followed by many' });
  const quiet = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Followed by nobody' });
  const ids: string[] = [];
  await transaction(db, async (tx) => {
    const now = nowIso();
    for (let i = 0; i < WATCHERS; i++) {
      const id = newId();
      ids.push(id);
      await insertUser(tx, {
        id,
        email: `watcher${i}@bench.example`,
        display_name: `Watcher ${i}`,
        password_hash: '!none',
        photo_url: null,
        created_at: now,
        email_verified_at: now,
      });
      await insertMembership(tx, {
        organization_id: org,
        user_id: id,
        role: 'read',
        disabled: 0,
        joined_at: now,
        last_seen_at: null,
      });
    }
    await addWatchers(
      tx,
      ids.map((user_id) => ({
        target_kind: 'change-request',
        target_id: busy.id,
        user_id,
        reason: 'participant',
        muted: 0,
        created_at: now,
      })),
    );
  });

  // (a) The request's latency, side by side: nobody follows / 1,000 follow (each one's fan-out runs meanwhile).
  const latency = { quiet: [] as number[], busy: [] as number[] };
  const fanout: number[] = [];
  for (let i = 0; i < POSTS; i++) {
    // Each goes first every other round: the one after runs while the other's mail is being sent.
    const order = [
      ['quiet', quiet],
      ['busy', busy],
    ] as const;
    for (const [which, cr] of i % 2 ? [...order].reverse() : order) {
      const before = await count('notifications');
      const start = performance.now();
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
        body: { markdown: `Comment ${i}` },
      });
      latency[which].push(performance.now() - start);
      if (which === 'busy') {
        // The first few: also the time until every notification exists and its mail is queued.
        await until(async () => (await count('notifications')) >= before + WATCHERS);
        fanout.push(performance.now() - start);
      }
    }
  }
  console.log(
    `  POST …/comments, nobody following: median ${median(latency.quiet).toFixed(1)} ms, p95 ${p95(latency.quiet).toFixed(1)} ms`,
  );
  console.log(
    `  POST …/comments, ${WATCHERS} following: median ${median(latency.busy).toFixed(1)} ms, p95 ${p95(latency.busy).toFixed(1)} ms (×${(median(latency.busy) / median(latency.quiet)).toFixed(2)})`,
  );
  console.log(
    `  fan-out of one comment to ${WATCHERS} people (notifications written, e-mails queued): median ${(median(fanout) / 1000).toFixed(2)} s`,
  );

  // (b) Outbox throughput: wait for the fan-out's mail to drain, then queue MESSAGES and time their delivery.
  await until(async () => (await count('email_messages', ['state', 'queued'])) === 0);
  const settings = { smtp: config.smtp, publicUrl: config.publicUrl };
  const mail = renderMail({
    subject: 'Throughput',
    brand: 'Bench',
    heading: 'Throughput',
    paragraphs: ['A message of a few hundred bytes, like a notification.'],
    button: { label: 'Open it', url: 'https://docs.example/x' },
    footer: 'Bench.',
  });
  const received = smtp.messages.length;
  await transaction(db, async (tx) => {
    for (let i = 0; i < MESSAGES; i++) {
      await queueEmail(tx, settings, {
        dedupeKey: `bench:${i}`,
        category: 'notification',
        kind: 'bench',
        to: `reader${i}@bench.example`,
        mail,
      });
    }
  });
  const start = performance.now();
  wakeJobQueues();
  await until(async () => smtp.messages.length >= received + MESSAGES);
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `  outbox to a local SMTP server: ${MESSAGES} messages in ${seconds.toFixed(2)} s (${(MESSAGES / seconds).toFixed(0)} messages/s, 2 at once, connections kept open between messages)`,
  );
} finally {
  await app.close();
  await cleanup();
  await smtp.close();
}
