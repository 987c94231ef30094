import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../../../test/harness.js';
import { newSite, newSpace, publishSite, seedPage } from '../../../test/factories.js';
import { PublishedSites } from './dispatch.js';
import { SiteCache } from './cache.js';

/** The page indexes of published spaces made ready ahead of their first visitor, after a start and after a change. */
describeEachDialect('published page indexes made ready', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('makes those of published spaces whose revision changed, once per revision', async () => {
    const org = `/v1/orgs/${server.orgId}`;
    const shown = await newSpace(server, server.orgId, { title: 'Shown' });
    const hidden = await newSpace(server, server.orgId, { title: 'On an unpublished site' });
    await seedPage(server, shown.id, 'Intro', 'Hello.');
    await seedPage(server, hidden.id, 'Draft', 'Not yet.');
    const site = await newSite(server);
    const draft = await newSite(server, server.orgId, { title: 'Draft site' });
    expect(
      (await server.request('POST', `${org}/sites/${site.id}/site-spaces`, { body: { spaceId: shown.id } })).status,
    ).toBe(201);
    expect(
      (await server.request('POST', `${org}/sites/${draft.id}/site-spaces`, { body: { spaceId: hidden.id } })).status,
    ).toBe(201);
    const sites = new PublishedSites(server.storage.db, server.config.publicUrl);
    expect(await sites.warmIndexes()).toBe(0); // nothing published yet
    await publishSite(server, server.orgId, site.id);
    const read = vi.spyOn(SiteCache.prototype, 'index');
    try {
      expect(await sites.warmIndexes()).toBe(1);
      const current = await server.request('GET', `/v1/spaces/${shown.id}`);
      expect(read.mock.calls).toEqual([[current.body.revision]]);
      expect(await read.mock.results[0]!.value).toMatchObject({ revisionId: current.body.revision });
    } finally {
      read.mockRestore();
    }
    expect(await sites.warmIndexes()).toBe(0); // unchanged
    await seedPage(server, shown.id, 'More', 'Added.');
    await seedPage(server, hidden.id, 'More', 'Still a draft.');
    expect(await sites.warmIndexes()).toBe(1); // the published space's new revision only
    expect((await server.request('POST', `${org}/sites/${site.id}/unpublish`)).status).toBe(200);
    await seedPage(server, shown.id, 'Later', 'Unpublished now.');
    expect(await sites.warmIndexes()).toBe(0);
  });
});
