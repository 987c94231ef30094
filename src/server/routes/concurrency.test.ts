import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newCollection, newSpace } from '../test/factories.js';

/** Concurrent writes never break an invariant (these races are real on PostgreSQL). */
describeEachDialect('concurrent writes', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('two crossing moves cannot make a cycle of collections', async () => {
    const a = await newCollection(server, server.orgId, { title: 'A' });
    const b = await newCollection(server, server.orgId, { title: 'B' });
    const [x, y] = await Promise.all([
      server.request('POST', `/v1/collections/${a.id}/move`, { body: { parent: b.id } }),
      server.request('POST', `/v1/collections/${b.id}/move`, { body: { parent: a.id } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 400]);
    const [ga, gb] = await Promise.all([
      server.request('GET', `/v1/collections/${a.id}`),
      server.request('GET', `/v1/collections/${b.id}`),
    ]);
    // Exactly one is inside the other; one of them is at the top.
    expect([ga.body.parent, gb.body.parent].filter((p) => p === undefined)).toHaveLength(1);
  });

  it('concurrent creates in one parent get distinct positions, in creation order', async () => {
    const parent = await newCollection(server, server.orgId, { title: 'Busy' });
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.request('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { title: `S${i}`, parent: parent.id } }),
      ),
    );
    expect(created.every((r) => r.status === 201)).toBe(true);
    const list = await server.request('GET', `/v1/collections/${parent.id}/spaces`);
    expect(list.body.count).toBe(10);
    const rows = await server.storage.db
      .selectFrom('spaces')
      .select('position')
      .where('parent_id', '=', parent.id)
      .execute();
    expect(new Set(rows.map((r) => r.position)).size).toBe(10);
  });

  it('a collection deleted while spaces are created in it leaves none behind outside the trash', async () => {
    const doomed = await newCollection(server, server.orgId, { title: 'Doomed' });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) =>
        server.request('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { title: `D${i}`, parent: doomed.id } }),
      ),
      server.request('DELETE', `/v1/collections/${doomed.id}`),
    ]);
    expect(results.every((r) => r.status < 500)).toBe(true);
    const created = results
      .slice(0, 5)
      .filter((r) => r.status === 201)
      .map((r) => r.body.id as string);
    for (const id of created) {
      const space = await server.request('GET', `/v1/spaces/${id}`);
      // Every space that was created is in the trash with the collection's deletion, none live at the root.
      expect(space.body.deletedAt).toBeDefined();
    }
  });

  it('keeps moving an item into one gap without the position keys growing without bound', async () => {
    const parent = await newCollection(server, server.orgId, { title: 'Gap' });
    const first = await newSpace(server, server.orgId, { title: 'first', parent: parent.id });
    const second = await newSpace(server, server.orgId, { title: 'second', parent: parent.id });
    const third = await newSpace(server, server.orgId, { title: 'third', parent: parent.id });
    // Alternate the last two around each other, always just after `first`: each key lands in a shrinking gap.
    let moving = third.id as string;
    let other = second.id as string;
    for (let i = 0; i < 120; i++) {
      const res = await server.request('POST', `/v1/spaces/${moving}/move`, {
        body: { position: { after: { type: 'space', space: first.id } } },
      });
      expect(res.status).toBe(200);
      [moving, other] = [other, moving];
    }
    const rows = await server.storage.db
      .selectFrom('spaces')
      .select('position')
      .where('parent_id', '=', parent.id)
      .execute();
    expect(Math.max(...rows.map((r) => r.position.length))).toBeLessThanOrEqual(48);
    const order = (await server.request('GET', `/v1/collections/${parent.id}/spaces`)).body.items.map(
      (s: { title: string }) => s.title,
    );
    expect(order[0]).toBe('first');
    expect(order).toHaveLength(3);
  });
});
