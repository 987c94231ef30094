import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import {
  editContent,
  newChangeRequest,
  newOrg,
  newSite,
  newSpace,
  publishSite,
  seedContent,
} from '../test/factories.js';
import { signSiteToken } from '../domain/sites/published/site-token.js';
import { PNG as ONE_PIXEL_PNG } from '../test/fixtures.js';

const PNG = Buffer.from(ONE_PIXEL_PNG);

/**
 * The back end of another renderer of published sites (GitBook's own, issue 27): `POST /v1/urls/published` resolves
 * a URL and hands out a site API token; the token reads what the site publishes, and nothing else.
 */
describeEachDialect('published content for other renderers', (dialect) => {
  let server: TestServer;
  let siteId: string;
  let guides: { id: string; revision: string };
  let reference: { id: string };
  let hidden: { id: string };
  let sections: Array<{ id: string; path: string }>;
  let setupId: string;
  let fileId: string;

  const org = () => `/v1/orgs/${server.orgId}`;
  const resolve = (url: string, extra: Record<string, unknown> = {}) =>
    server.request('POST', '/v1/urls/published', { token: null, body: { url, ...extra } });
  const tokenFor = async (url: string) => {
    const res = await resolve(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.apiToken as string;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const a = await newSpace(server, server.orgId, { title: 'Guides' });
    const b = await newSpace(server, server.orgId, { title: 'Reference' });
    const c = await newSpace(server, server.orgId, { title: 'Internal' });
    const seeded = await seedContent(server, a.id, [
      { operation: 'insert_files', files: [{ name: 'pic.png', base64: PNG.toString('base64') }] },
      {
        operation: 'insert_page',
        title: 'Welcome',
        document: { markdown: '# Hello\n\n![pic](pic.png)\n\nSee [setup](setup.md).' },
      },
      { operation: 'insert_page', title: 'Setup', document: { markdown: '## Install\n\n```bash\nnpm i\n```' } },
    ]);
    setupId = seeded.pageIds.filter(Boolean)[1]!;
    fileId = seeded.insertedFiles![0]!.id;
    guides = { id: a.id, revision: seeded.revision };
    await seedContent(server, b.id, [{ operation: 'insert_page', title: 'API', document: { markdown: 'Calls.' } }]);
    await seedContent(server, c.id, [{ operation: 'insert_page', title: 'Secret', document: { markdown: 'No.' } }]);
    reference = b;
    hidden = c;
    const site = await newSite(server, server.orgId, { visibility: 'public' });
    siteId = site.id;
    const base = `${org()}/sites/${siteId}`;
    sections = [
      (await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } })).body,
      (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body,
    ];
    await publishSite(server, server.orgId, siteId);
  });
  afterAll(() => server.close());

  it('resolves URLs of a published site, whatever their scheme, and nothing else', async () => {
    const root = await resolve(`https://docs.test/sites/${siteId}`, { redirectOnError: false, cacheBust: 'x' });
    expect(root.status).toBe(200);
    expect(root.headers.get('cache-control')).toBe('private, no-store');
    expect(root.body).toMatchObject({
      site: siteId,
      siteSection: sections[0]!.id,
      space: guides.id,
      organization: server.orgId,
      revision: guides.revision,
      pathname: '',
      basePath: `/sites/${siteId}/`,
      siteBasePath: `/sites/${siteId}/`,
      // A second section could still be named by the next segment.
      complete: false,
    });

    const shorter = await resolve(`http://docs.test/sites/${siteId}/${sections[1]!.path}/api/calls`);
    expect(shorter.status).toBe(200);
    expect(shorter.body).toMatchObject({
      siteSection: sections[1]!.id,
      space: reference.id,
      pathname: 'api/calls',
      basePath: `/sites/${siteId}/${sections[1]!.path}/`,
      // The site space's own segment could still follow (this server's URLs name it).
      complete: false,
    });
    const variant = (await server.request('GET', `${org()}/sites/${siteId}/site-spaces`)).body.items.find(
      (ss: { space: { id: string } }) => ss.space.id === reference.id,
    ).path;
    const deep = await resolve(`http://docs.test/sites/${siteId}/${sections[1]!.path}/${variant}/api/calls`);
    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({
      siteSection: sections[1]!.id,
      space: reference.id,
      pathname: 'api/calls',
      basePath: `/sites/${siteId}/${sections[1]!.path}/${variant}/`,
      complete: true,
      canonicalUrl: `http://docs.test/sites/${siteId}/${sections[1]!.path}/${variant}/api/calls`,
    });

    // The token is a JWT anyone can decode, the same for the same site space within the hour.
    const claims = decodeJwt(deep.body.apiToken);
    expect(claims).toMatchObject({
      kind: 'site',
      organization: server.orgId,
      site: siteId,
      siteSection: sections[1]!.id,
      space: reference.id,
    });
    expect([...(claims.spaces as string[])].sort()).toEqual([guides.id, reference.id].sort());
    expect((claims.exp as number) - Date.now() / 1000).toBeGreaterThan(2 * 3600 - 5);
    expect((await resolve(`docs.test/sites/${siteId}/${sections[1]!.path}`)).body.apiToken).toBe(deep.body.apiToken);
    expect(shorter.body.apiToken).toBe(deep.body.apiToken);

    for (const url of [
      `https://elsewhere.test/sites/${siteId}`,
      'https://docs.test/sites/site_unknown/x',
      'https://docs.test/',
      'https://docs.test/sites',
      `https://docs.test/v1/sites/${siteId}`,
    ]) {
      const res = await resolve(url);
      expect(res.status, url).toBe(404);
    }
    expect((await resolve('')).status).toBe(400);

    // A merge shows at once: the next resolution names the new revision.
    const merged = await seedContent(server, reference.id, [
      { operation: 'insert_page', title: 'Errors', document: { markdown: 'Codes.' } },
    ]);
    const after = await resolve(`http://docs.test/sites/${siteId}/${sections[1]!.path}/${variant}/errors`);
    expect(after.body.revision).toBe(merged.revision);
    expect(after.body.revision).not.toBe(deep.body.revision);
  });

  it('reads what the site publishes with the token', async () => {
    const token = await tokenFor(`https://docs.test/sites/${siteId}/${sections[0]!.path}`);
    const as = { token };
    const space = await server.request('GET', `/v1/spaces/${guides.id}`, as);
    expect(space.status).toBe(200);
    expect(space.body).toMatchObject({ id: guides.id, revision: guides.revision, changeRequests: 0 });

    const revision = await server.request(
      'GET',
      `/v1/spaces/${guides.id}/revisions/${guides.revision}?metadata=true`,
      as,
    );
    expect(revision.status).toBe(200);
    const page = revision.body.pages.find((p: { id: string }) => p.id === setupId);
    expect(page).toMatchObject({ path: 'setup', documentId: expect.any(String) });
    // Files load from the published site, not from the authenticated API.
    const file = revision.body.files.find((f: { id: string }) => f.id === fileId);
    expect(file.downloadURL).toBe(`http://docs.test/sites/${siteId}/${sections[0]!.path}/guides/~files/${fileId}`);
    const bytes = await fetch(server.url + new URL(file.downloadURL).pathname);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);

    const document = await server.request(
      'GET',
      `/v1/spaces/${guides.id}/revisions/${guides.revision}/page/${setupId}/document?evaluated=deterministic-only&dereferenced=true`,
      as,
    );
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ object: 'document' });
    const byId = await server.request('GET', `/v1/spaces/${guides.id}/documents/${page.documentId}`, as);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(document.body);
    expect((await server.request('GET', `/v1/spaces/${guides.id}/documents/nope`, as)).status).toBe(404);
    const byPath = await server.request('GET', `/v1/spaces/${guides.id}/revisions/${guides.revision}/path/setup`, as);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(setupId);

    const published = await server.request('GET', `${org()}/sites/${siteId}/published`, as);
    expect(published.status).toBe(200);
    expect(published.body.structure.type).toBe('sections');
    expect(published.body.site.urls.published).toBe(`http://docs.test/sites/${siteId}`);

    const search = await server.request('POST', `${org()}/sites/${siteId}/search`, {
      ...as,
      body: { query: 'install' },
    });
    expect(search.status).toBe(200);
    expect(search.body.items.flatMap((s: any) => s.pages.map((p: any) => p.id))).toContain(setupId);
    const owner = await server.request('GET', `/v1/users/${server.owner.id}`, as);
    expect(owner.status).toBe(200);
    expect(owner.body.email).toBeUndefined();
  });

  it('reads nothing else: other spaces, change requests, writes, other sites, forged or expired tokens', async () => {
    const token = await tokenFor(`https://docs.test/sites/${siteId}`);
    const as = { token };
    // A space of the organization that the site does not show, and its content.
    expect((await server.request('GET', `/v1/spaces/${hidden.id}`, as)).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${hidden.id}/content`, as)).status).toBe(404);
    // A change request: its content never, its revision never, not even to list.
    const cr = await newChangeRequest(server, guides.id);
    await editContent(server, guides.id, cr.id, [
      { operation: 'insert_page', title: 'Draft', document: { markdown: 'Unpublished.' } },
    ]);
    const crRevision = (await server.request('GET', `/v1/spaces/${guides.id}/change-requests/${cr.id}`)).body.revision;
    expect(crRevision).toEqual(expect.any(String));
    expect(crRevision).not.toBe(guides.revision);
    expect((await server.request('GET', `/v1/spaces/${guides.id}/change-requests/${cr.id}/content`, as)).status).toBe(
      403,
    );
    expect((await server.request('GET', `/v1/spaces/${guides.id}/revisions/${crRevision}`, as)).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${guides.id}/change-requests`, as)).status).toBe(403);
    // Writes, and reads of everything that is not published content.
    expect(
      (await server.request('POST', `/v1/spaces/${guides.id}/change-requests`, { ...as, body: { subject: 'x' } }))
        .status,
    ).toBe(403);
    expect((await server.request('PATCH', `${org()}/sites/${siteId}`, { ...as, body: { title: 'x' } })).status).toBe(
      403,
    );
    expect((await server.request('GET', `${org()}/members`, as)).status).toBe(403);
    expect((await server.request('GET', '/v1/user', as)).status).toBe(403);
    // Another site of the same organization.
    const other = await newSite(server, server.orgId, { spaces: [hidden.id], visibility: 'public' });
    await publishSite(server, server.orgId, other.id);
    expect((await server.request('GET', `${org()}/sites/${other.id}/published`, as)).status).toBe(404);
    expect(
      (await server.request('POST', `${org()}/sites/${other.id}/search`, { ...as, body: { query: 'secret' } })).status,
    ).toBe(404);

    // Forged (another key), tampered and expired tokens.
    const payload = decodeJwt(token);
    const forged = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await server.request('GET', `/v1/spaces/${guides.id}`, { token: forged })).status).toBe(401);
    const [h, , s] = token.split('.');
    const widened = Buffer.from(JSON.stringify({ ...payload, spaces: [hidden.id] })).toString('base64url');
    expect((await server.request('GET', `/v1/spaces/${hidden.id}`, { token: `${h}.${widened}.${s}` })).status).toBe(
      401,
    );
    const expired = await signSiteToken(
      server.storage.db,
      {
        organizationId: server.orgId,
        siteId,
        siteSpaceId: payload.siteSpace as string,
        spaceId: guides.id,
        spaceIds: [guides.id],
      },
      { nowSeconds: Date.now() / 1000 - 4 * 3600 },
    );
    expect((await server.request('GET', `/v1/spaces/${guides.id}`, { token: expired })).status).toBe(401);

    // Unpublished, the site's tokens read nothing more.
    const base = `${org()}/sites/${other.id}`;
    const otherToken = await tokenFor(`https://docs.test/sites/${other.id}`);
    expect((await server.request('GET', `/v1/spaces/${hidden.id}`, { token: otherToken })).status).toBe(200);
    expect((await server.request('POST', `${base}/unpublish`)).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${hidden.id}`, { token: otherToken })).status).toBe(404);
    expect((await resolve(`https://docs.test/sites/${other.id}`)).status).toBe(404);
  });

  describe('visibility', () => {
    it('share-link sites resolve only through an active key, and their tokens end with it', async () => {
      const space = await newSpace(server, server.orgId, { title: 'Shared' });
      await seedContent(server, space.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }]);
      const site = await newSite(server, server.orgId, { spaces: [space.id], visibility: 'share-link' });
      await publishSite(server, server.orgId, site.id);
      const links = `${org()}/sites/${site.id}/share-links`;
      const link = (await server.request('POST', links, { body: { name: 'Readers' } })).body;
      const key = new URL(link.urls.published).pathname.split('/').pop()!;
      expect((await resolve(`https://docs.test/sites/${site.id}`)).status).toBe(404);
      const found = await resolve(`https://docs.test/sites/${site.id}/~share/${key}/p`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({
        shareKey: key,
        siteBasePath: `/sites/${site.id}/~share/${key}/`,
        pathname: 'p',
      });
      const as = { token: found.body.apiToken };
      expect((await server.request('GET', `/v1/spaces/${space.id}`, as)).status).toBe(200);
      const published = await server.request('GET', `${org()}/sites/${site.id}/published`, as);
      expect(published.body.site.urls.published).toBe(`http://docs.test/sites/${site.id}/~share/${key}`);
      expect((await server.request('PATCH', `${links}/${link.id}`, { body: { active: false } })).status).toBe(200);
      expect((await server.request('GET', `/v1/spaces/${space.id}`, as)).status).toBe(404);
    });

    it('visitor-auth sites check the visitor token, or send the visitor to sign in', async () => {
      const space = await newSpace(server, server.orgId, { title: 'Members' });
      await seedContent(server, space.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }]);
      const site = await newSite(server, server.orgId, { spaces: [space.id], visibility: 'visitor-auth' });
      await publishSite(server, server.orgId, site.id);
      const url = `https://docs.test/sites/${site.id}/members/p`;
      expect((await resolve(url)).status).toBe(401);
      const auth = `${org()}/sites/${site.id}/publishing/auth`;
      const updated = await server.request('PATCH', auth, { body: { fallbackURL: 'https://login.example.com/start' } });
      expect(updated.status).toBe(200);
      const redirect = await resolve(url);
      expect(redirect.status).toBe(200);
      expect(redirect.body.target).toBe('external');
      const target = new URL(redirect.body.redirect);
      expect(target.origin + target.pathname).toBe('https://login.example.com/start');
      expect(target.searchParams.get('location')).toBe(url);

      const key = new TextEncoder().encode(updated.body.privateKey);
      const jwt = await new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('30m')
        .sign(key);
      const found = await resolve(url, { visitor: { jwtToken: jwt } });
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ space: space.id, pathname: 'p', contextId: expect.any(String) });
      // The site token lasts no longer than the visitor's.
      const exp = decodeJwt(found.body.apiToken).exp!;
      expect(exp).toBeLessThanOrEqual(decodeJwt(jwt).exp!);
      expect((await server.request('GET', `/v1/spaces/${space.id}`, { token: found.body.apiToken })).status).toBe(200);
      const wrong = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('30m')
        .sign(new TextEncoder().encode('y'.repeat(32)));
      expect((await resolve(url, { visitor: { jwtToken: wrong } })).body.target).toBe('external');
    });
  });

  it("shows a token's visitor only the sections and site spaces their claims let them see", async () => {
    const a = await newSpace(server, server.orgId, { title: 'Open' });
    const b = await newSpace(server, server.orgId, { title: 'Beta' });
    for (const space of [a, b]) {
      await seedContent(server, space.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }]);
    }
    const site = await newSite(server, server.orgId, { visibility: 'visitor-auth' });
    const base = `${org()}/sites/${site.id}`;
    await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } });
    const beta = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
    await server.request('PATCH', `${base}/sections/${beta.id}`, {
      body: { condition: 'visitor.claims.beta === true' },
    });
    await publishSite(server, server.orgId, site.id);
    const key = new TextEncoder().encode((await server.request('GET', `${base}/publishing/auth`)).body.privateKey);
    const as = async (claims: Record<string, unknown>) => {
      const jwtToken = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
      const found = await resolve(`https://docs.test/sites/${site.id}`, { visitor: { jwtToken } });
      return found.body.apiToken as string;
    };
    const titles = async (token: string) =>
      (await server.request('GET', `${base}/published`, { token })).body.structure.structure.map(
        (s: { title: string }) => s.title,
      );
    const plain = await as({});
    expect(await titles(plain)).toEqual(['Open']);
    expect(decodeJwt(plain).spaces).toEqual([a.id]);
    expect((await server.request('GET', `/v1/spaces/${b.id}`, { token: plain })).status).toBe(404);
    const tester = await as({ beta: true });
    expect(await titles(tester)).toEqual(['Open', 'Beta']);
    expect((await server.request('GET', `/v1/spaces/${b.id}`, { token: tester })).status).toBe(200);
  });

  describe('site redirects', () => {
    it('are managed by those who may edit the site, checked, and followed by the site and by a token', async () => {
      const base = `${org()}/sites/${siteId}/redirects`;
      const reader = await server.member('read');
      const outsider = await server.signup('outsider');
      const theirs = await newOrg(server, 'Theirs', { token: outsider.token });

      const create = (body: unknown, token?: string) => server.request('POST', base, { body, token });
      const toSetup = { kind: 'site-page', siteSpaceId: '', pageId: setupId };
      const structure = (await server.request('GET', `${org()}/sites/${siteId}/site-spaces`)).body.items;
      toSetup.siteSpaceId = structure.find((ss: { space: { id: string } }) => ss.space.id === guides.id).id;

      // Bad input names the field and changes nothing.
      const badSource = await create({ source: 'old page', destination: toSetup });
      expect(badSource.status).toBe(400);
      expect(JSON.stringify(badSource.body)).toContain('source');
      const badSpace = await create({ source: '/old', destination: { ...toSetup, siteSpaceId: 'nope' } });
      expect(badSpace.status).toBe(400);
      expect(badSpace.body.error.message).toContain('destination.siteSpaceId');
      const badPage = await create({ source: '/old', destination: { ...toSetup, pageId: 'nope' } });
      expect(badPage.status).toBe(400);
      expect(badPage.body.error.message).toContain('destination.pageId');
      expect((await server.request('GET', base)).body.count).toBe(0);

      // Readers see them, cannot add them; another organization's admin does not know the site.
      expect((await create({ source: '/old', destination: toSetup }, reader.token)).status).toBe(403);
      expect((await server.request('GET', base, { token: reader.token })).status).toBe(200);
      expect(theirs.id).not.toBe(server.orgId);
      expect((await create({ source: '/old', destination: toSetup }, outsider.token)).status).toBe(404);
      expect((await server.request('GET', base, { token: outsider.token })).status).toBe(404);

      const made = await create({ source: '/old/setup', destination: toSetup });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ object: 'site-redirect', source: '/old/setup', destination: toSetup });
      expect((await create({ source: '/old/setup', destination: toSetup })).status).toBe(409);
      const toSection = await create({
        source: '/ref',
        destination: { kind: 'site-section', siteSectionId: sections[1]!.id },
      });
      expect(toSection.status).toBe(201);
      const listed = await server.request('GET', `${base}?search=OLD`);
      expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([made.body.id]);

      // Where they lead: for a member, for a site token, and on the published site.
      const setupUrl = `http://docs.test/sites/${siteId}/${sections[0]!.path}/guides/setup`;
      const bySource = await server.request('GET', `${org()}/sites/${siteId}/redirect?source=/old/setup`);
      expect(bySource.status).toBe(200);
      expect(bySource.body).toEqual({ redirect: made.body, target: setupUrl });
      const token = await tokenFor(`https://docs.test/sites/${siteId}`);
      const viaToken = await server.request('GET', `${org()}/sites/${siteId}/redirect?source=%2Fref`, { token });
      expect(viaToken.body.target).toBe(`http://docs.test/sites/${siteId}/${sections[1]!.path}`);
      expect((await server.request('GET', `${org()}/sites/${siteId}/redirect?source=/none`, { token })).status).toBe(
        404,
      );
      const followed = await fetch(`${server.url}/sites/${siteId}/old/setup`, { redirect: 'manual' });
      expect(followed.status).toBe(302);
      expect(followed.headers.get('location')).toBe(setupUrl);

      // Changed, then deleted: the path answers 404 again.
      const moved = await server.request('PATCH', `${base}/${made.body.id}`, {
        body: { destination: { kind: 'site-space', siteSpaceId: toSetup.siteSpaceId } },
      });
      expect(moved.status).toBe(200);
      expect((await server.request('PATCH', `${base}/${made.body.id}`, { body: { source: '/ref' } })).status).toBe(409);
      expect((await server.request('DELETE', `${base}/${made.body.id}`, { token: reader.token })).status).toBe(403);
      expect((await server.request('DELETE', `${base}/${made.body.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `${base}/${made.body.id}`)).status).toBe(204);
      expect((await fetch(`${server.url}/sites/${siteId}/old/setup`, { redirect: 'manual' })).status).toBe(404);
    });
  });
});
