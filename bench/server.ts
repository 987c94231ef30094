// Benchmark server (child process of bench/run.ts): the real app and a bare Fastify route over one seeded
// SQLite database. Prints one JSON line with the ports and ids, then serves until killed.
import Fastify from 'fastify';
import { generateNKeysBetween } from 'fractional-indexing';
import { buildApp } from '../src/server/app.js';
import { newId } from '../src/server/lib/ids.js';
import { nowIso } from '../src/server/lib/time.js';
import { benchDatabase } from './setup.js';

const SPACES = Number(process.env.BENCH_SPACES ?? 50_000);
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqrstuvwxyz';

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);

// Seed the spaces in batches, in one transaction.
const positions = generateNKeysBetween(null, null, SPACES);
const ownerId = (await storage.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
await storage.db.transaction().execute(async (tx) => {
  for (let i = 0; i < SPACES; i += 500) {
    const rows = [];
    for (let j = i; j < Math.min(SPACES, i + 500); j++) {
      const now = nowIso();
      rows.push({
        id: newId(),
        organization_id: owner.organizationId,
        parent_id: null,
        title: `Space ${j}`,
        emoji: '',
        visibility: 'private',
        edit_mode: 'live',
        default_level: 'inherit',
        position: positions[j]!,
        revision_id: newId(),
        comments: 0,
        change_requests: 0,
        change_requests_open: 0,
        change_requests_draft: 0,
        created_by: ownerId,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    }
    await tx.insertInto('spaces').values(rows).execute();
  }
});
const spaceId = (await storage.db.selectFrom('spaces').select('id').orderBy('position').executeTakeFirstOrThrow()).id;

const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });

// The baseline: Fastify returning the same row as JSON, with no auth, permission check, validation or presenter.
const bare = Fastify();
bare.get<{ Params: { id: string } }>('/bare/:id', async (request) =>
  storage.db.selectFrom('spaces').selectAll().where('id', '=', request.params.id).executeTakeFirst(),
);
// CPU time this process has used (µs), read between rounds: a per-request cost that other load on the machine
// disturbs far less than throughput does.
bare.get('/cpu', async () => {
  const { user, system } = process.cpuUsage();
  return { us: user + system };
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (s: typeof app.server) => {
  const a = s.address();
  return typeof a === 'object' && a ? a.port : 0;
};
console.log(
  JSON.stringify({ real: port(app.server), bare: port(bare.server), token: TOKEN, org: owner.organizationId, spaceId }),
);
process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await cleanup();
  process.exit(0);
});
