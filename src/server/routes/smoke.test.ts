import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';

describeEachDialect('harness', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('serves the owner their first organization', async () => {
    const res = await server.request('GET', '/v1/orgs');
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
  });

  it('lets a reader member see the organization but not create in it', async () => {
    const reader = await server.member('read');
    expect((await server.request('GET', `/v1/orgs/${server.orgId}`, { token: reader.token })).status).toBe(200);
    const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
      token: reader.token,
      body: { title: 'x' },
    });
    expect(res.status).toBe(403);
  });
});
