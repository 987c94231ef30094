import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newSpace, seedContent } from '../test/factories.js';

interface Range {
  start: number;
  end: number;
}
interface Section {
  id: string;
  title: string;
  path: string;
  body: string;
  urls: { app: string };
  highlights: { title: Range[]; body: Range[] };
}
interface PageResult {
  id: string;
  title: string;
  path: string;
  sections: Section[];
  urls: { app: string };
  highlights: { title: Range[] };
}

const marked = (text: string, ranges: Range[]) => ranges.map((r) => text.slice(r.start, r.end));

describeEachDialect('full-text search', (dialect) => {
  let server: TestServer;
  let guides: string;
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    guides = (await newSpace(server, server.orgId, { title: 'Guides' })).id;
    const made = await edit(guides, [
      {
        operation: 'insert_page',
        title: 'Configuring the server',
        document: { markdown: 'Start here.\n\n## Ports\n\nOpen port 8080 for the dashboard.' },
      },
      {
        operation: 'insert_page',
        title: 'Release notes',
        document: {
          markdown: 'We changed how you configure logging: the configuration file moved. Logging is quieter.',
        },
      },
      {
        operation: 'insert_page',
        title: 'Kubernetes deployment',
        document: { markdown: 'Deploy on a cluster. The quick brown fox jumps over it.' },
      },
      { operation: 'insert_page', title: 'Animals', document: { markdown: 'The brown quick fox sleeps.' } },
      {
        operation: 'insert_page',
        title: 'Escapes',
        document: { markdown: 'Compare x < y && z > w.\n\n<script>alert(1)</script>\n\nTom & Jerry <b>bold</b>.' },
      },
    ]);
    for (const change of made) pages[change.page.title ?? ''] = change.page.id;
  });
  afterAll(() => server.close());

  const org = () => `/v1/orgs/${server.orgId}`;

  /** Applies changes through a change request, merged; returns the created pages with their titles. */
  async function edit(spaceId: string, changes: Array<Record<string, unknown>>, token?: string) {
    const made = await seedContent(server, spaceId, changes, { token });
    return made.pageIds.map((id, i) => ({ page: { id, title: changes[i]!.title as string | undefined } }));
  }

  const q = (text: string) => encodeURIComponent(text);
  const searchSpace = (spaceId: string, text: string, opts: { token?: string; extra?: string } = {}) =>
    server.request('GET', `/v1/spaces/${spaceId}/search?query=${q(text)}${opts.extra ?? ''}`, { token: opts.token });
  const searchOrg = (text: string, opts: { token?: string; extra?: string; orgId?: string } = {}) =>
    server.request('GET', `/v1/orgs/${opts.orgId ?? server.orgId}/search?query=${q(text)}${opts.extra ?? ''}`, {
      token: opts.token,
    });
  const titles = async (res: Promise<{ status: number; body: { items: PageResult[] } }>) => {
    const r = await res;
    expect(r.status).toBe(200);
    return r.body.items.map((p) => p.title);
  };
  /** Page titles of an organization search, across its spaces. */
  const orgTitles = async (text: string, opts: { token?: string; orgId?: string } = {}) => {
    const r = await searchOrg(text, opts);
    expect(r.status).toBe(200);
    return (r.body.items as Array<{ pages: PageResult[] }>).flatMap((s) => s.pages.map((p) => p.title));
  };

  describe('relevance', () => {
    it('puts a title match above a body match, and stems: "configure" finds configuring and configuration', async () => {
      expect(await titles(searchSpace(guides, 'configure'))).toEqual(['Configuring the server', 'Release notes']);
      expect(await titles(searchSpace(guides, 'configuration'))).toEqual(['Configuring the server', 'Release notes']);
      expect(await titles(searchSpace(guides, 'CONFIGURED'))).toEqual(['Configuring the server', 'Release notes']);
    });

    it('leaves English stop words out, alike on both databases', async () => {
      expect(await titles(searchSpace(guides, 'the'))).toEqual([]);
      expect(await titles(searchSpace(guides, 'how to configure the'))).toEqual([
        'Configuring the server',
        'Release notes',
      ]);
      // Inside a phrase, every word counts.
      expect(await titles(searchSpace(guides, '"fox jumps over"'))).toEqual(['Kubernetes deployment']);
    });

    it('matches the last word typed as a prefix, from three characters', async () => {
      expect(await titles(searchSpace(guides, 'kube'))).toEqual(['Kubernetes deployment']);
      expect(await titles(searchSpace(guides, 'cluster kuber'))).toEqual(['Kubernetes deployment']);
      expect(await titles(searchSpace(guides, 'ku'))).toEqual([]);
      // Only the last word: "kube" as a middle word must match whole.
      expect(await titles(searchSpace(guides, 'kube cluster'))).toEqual([]);
    });

    it('matches quoted phrases as phrases, and every word otherwise', async () => {
      expect(await titles(searchSpace(guides, '"quick brown"'))).toEqual(['Kubernetes deployment']);
      expect((await titles(searchSpace(guides, 'quick brown'))).sort()).toEqual(['Animals', 'Kubernetes deployment']);
      expect(await titles(searchSpace(guides, '"brown quick" fox'))).toEqual(['Animals']);
      expect(await titles(searchSpace(guides, 'quick giraffe'))).toEqual([]);
    });

    it('marks the matched words in the title and in excerpts of the matching sections', async () => {
      const res = await searchSpace(guides, 'configure');
      const [server_, notes] = res.body.items as PageResult[];
      expect(marked(server_!.title, server_!.highlights.title)).toEqual(['Configuring']);
      expect(server_!.sections).toEqual([]); // only its title matched
      expect(notes!.sections).toHaveLength(1);
      const intro = notes!.sections[0]!;
      expect(intro).toMatchObject({ id: pages['Release notes'], title: 'Release notes', path: 'release-notes' });
      expect(marked(intro.body, intro.highlights.body)).toEqual(['configure', 'configuration']);
      expect(intro.urls.app).toBe(notes!.urls.app);
      expect(notes!.urls.app).toBe(
        `${server.config.publicUrl}/o/${server.orgId}/spaces/${guides}/pages/${pages['Release notes']}`,
      );
      // The same marks on a page of results that shows fewer pages than match (FTS5 once ignored the row ids
      // given as JavaScript numbers and marked other pages' text).
      expect(res.body.next).toBeUndefined();
      const one = await searchSpace(guides, 'configure', { extra: '&limit=1' });
      const next = await searchSpace(guides, 'configure', { extra: `&limit=1&page=${one.body.next.page}` });
      expect(marked(one.body.items[0].title, one.body.items[0].highlights.title)).toEqual(['Configuring']);
      const again = (next.body.items as PageResult[])[0]!;
      expect(again.title).toBe('Release notes');
      expect(marked(again.sections[0]!.body, again.sections[0]!.highlights.body)).toEqual([
        'configure',
        'configuration',
      ]);
    });

    it('gives a heading section its anchor, path and link', async () => {
      const res = await searchSpace(guides, 'ports dashboard');
      const page = (res.body.items as PageResult[])[0]!;
      expect(page.title).toBe('Configuring the server');
      expect(page.path).toBe('configuring-the-server');
      expect(page.sections).toHaveLength(1);
      const section = page.sections[0]!;
      expect(section).toMatchObject({
        id: 'ports',
        title: 'Ports',
        path: 'configuring-the-server#ports',
        body: 'Open port 8080 for the dashboard.',
      });
      expect(section.urls.app).toBe(`${page.urls.app}#ports`);
      expect(marked(section.title, section.highlights.title)).toEqual(['Ports']);
      expect(marked(section.body, section.highlights.body)).toEqual(['port', 'dashboard']);
    });

    it('answers plain text: raw HTML is not searchable text, and nothing in a result is markup', async () => {
      const res = await searchSpace(guides, 'jerry');
      const page = (res.body.items as PageResult[])[0]!;
      const body = page.sections[0]!.body;
      expect(body).toBe('Compare x < y && z > w. Tom & Jerry bold.');
      expect(body).not.toContain('<script');
      expect(await titles(searchSpace(guides, 'alert'))).toEqual([]);
      expect(await titles(searchSpace(guides, 'script'))).toEqual([]);
    });

    it('cuts long sections into excerpts around the match', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Long' })).id;
      const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');
      await edit(id, [
        {
          operation: 'insert_page',
          title: 'Long page',
          document: { markdown: `${filler(300)} needle ${filler(300)}` },
        },
      ]);
      const section = ((await searchSpace(id, 'needle')).body.items as PageResult[])[0]!.sections[0]!;
      expect(section.body.length).toBeLessThan(260);
      expect(section.body.startsWith('…')).toBe(true);
      expect(section.body.endsWith('…')).toBe(true);
      expect(marked(section.body, section.highlights.body)).toEqual(['needle']);
    });

    it('highlights a page repeating the word 20,000 times within its bounds: 500 marks, excerpts whole', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Repeated' })).id;
      const parts = Array.from({ length: 10 }, (_, i) => `## Part ${i}\n\n${'needle '.repeat(2000).trim()}`);
      await edit(id, [{ operation: 'insert_page', title: 'Needles', document: { markdown: parts.join('\n\n') } }]);
      const page = ((await searchSpace(id, 'needle')).body.items as PageResult[])[0]!;
      expect(page.title).toBe('Needles');
      // Highlighted in page order until the page's 500 marks are spent: the first section only (2,000 words).
      expect(page.sections.map((s) => s.id)).toEqual(['part-0']);
      const section = page.sections[0]!;
      expect(section.body.length).toBeLessThan(260);
      expect(marked(section.body, section.highlights.body).every((w) => w === 'needle')).toBe(true);
      expect(section.highlights.body.length).toBeGreaterThan(20);
    });

    it('indexes big pages through the worker pool', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Big' })).id;
      const body = `${'Lorem ipsum dolor sit amet. '.repeat(1500)}\n\n## Far away\n\nThe hidden treasure.`;
      expect(body.length).toBeGreaterThan(16 * 1024);
      await edit(id, [{ operation: 'insert_page', title: 'Big page', document: { markdown: body } }]);
      const page = ((await searchSpace(id, 'treasure')).body.items as PageResult[])[0]!;
      expect(page.sections.map((s) => s.id)).toEqual(['far-away']);
    });
  });

  describe('paging and input', () => {
    it('pages by position: limit, next.page, count; a bad cursor is a 400 naming page', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Paged' })).id;
      await edit(
        id,
        Array.from({ length: 5 }, (_, i) => ({
          operation: 'insert_page',
          title: `Meadow ${i}`,
          document: { markdown: `Meadow ${'meadow '.repeat(i)}` },
        })),
      );
      const first = await searchSpace(id, 'meadow', { extra: '&limit=2' });
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(2);
      const seen = new Set<string>(first.body.items.map((p: PageResult) => p.id));
      let next = first.body.next?.page as string | undefined;
      while (next) {
        const page = await searchSpace(id, 'meadow', { extra: `&limit=2&page=${next}` });
        for (const p of page.body.items as PageResult[]) {
          expect(seen.has(p.id)).toBe(false);
          seen.add(p.id);
        }
        next = page.body.next?.page;
      }
      expect(seen.size).toBe(5);
      expect(first.body.count).toBe(5);
      for (const bad of ['nope', 'WyItMSJd', 'WyIxMDAwMDAwIl0']) {
        const res = await searchSpace(id, 'meadow', { extra: `&page=${bad}` });
        expect(res.status).toBe(400);
        expect(res.body.error.issues[0].path).toBe('page');
      }
    });

    it('refuses a missing, blank or over-long query (400 naming query); 512 characters pass', async () => {
      for (const path of [`${org()}/search`, `${org()}/search?query=%20`, `/v1/spaces/${guides}/search`]) {
        const res = await server.request('GET', path);
        expect(res.status).toBe(400);
        expect(res.body.error.issues[0].path).toBe('query');
      }
      expect((await searchOrg('q'.repeat(512))).status).toBe(200);
      expect((await searchOrg('q'.repeat(513))).status).toBe(400);
      expect((await searchSpace(guides, 'word '.repeat(102))).status).toBe(200);
    });

    it('never fails on what is typed: syntax of either database is plain text, nothing to search is an empty list', async () => {
      const inputs = [
        '"',
        '""',
        '"""',
        '*',
        '**',
        'AND',
        'OR NOT',
        'NEAR(',
        'NEAR(a b, 2)',
        '-',
        '-configure',
        ':',
        'title:configure',
        'body : x',
        "'",
        "don't",
        '\\',
        '(',
        ')',
        '{}',
        '[]',
        '^',
        '+configure',
        'configure*',
        '*configure',
        'a & b | !c',
        "configure:* & !'x'",
        '<->',
        'a <2> b',
        '%',
        '_',
        '🙂🙂',
        '設定',
        'مرحبا',
        'e\u0301',
        '\u0301\u0301',
        'ﬁle',
        'x'.repeat(300),
        '"unclosed phrase',
        'a"b"c"d',
        '$100',
        'C++',
        'user@example.com',
        'v1.2.3',
        'https://example.com/a?b=c',
        '\u200b',
      ];
      for (const input of inputs) {
        const inSpace = await searchSpace(guides, input);
        expect(inSpace.status, JSON.stringify(input)).toBe(200);
        expect(Array.isArray(inSpace.body.items)).toBe(true);
        const inOrg = await searchOrg(input);
        expect(inOrg.status, JSON.stringify(input)).toBe(200);
      }
      expect((await searchSpace(guides, '"')).body).toEqual({ items: [], count: 0 });
      expect(await titles(searchSpace(guides, '-configure'))).toEqual(['Configuring the server', 'Release notes']);
      expect(await titles(searchSpace(guides, 'title:configure'))).toEqual([]);
    });

    it('finds words inside addresses, prices and versions alike on both databases', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Symbols' })).id;
      await edit(id, [
        {
          operation: 'insert_page',
          title: 'Contact',
          document: { markdown: 'Write to support@example.com, pay $100 for v2.5 of the state-of-the-art tool.' },
        },
      ]);
      for (const word of ['example', 'support', '100', 'v2', 'art', 'support@example.com', 'state-of-the-art']) {
        expect(await titles(searchSpace(id, word)), word).toEqual(['Contact']);
      }
      const section = ((await searchSpace(id, 'example')).body.items as PageResult[])[0]!.sections[0]!;
      expect(marked(section.body, section.highlights.body)).toEqual(['example']);
    });
  });

  describe('permissions', () => {
    let secret: string;
    beforeAll(async () => {
      secret = (await newSpace(server, server.orgId, { title: 'Secret' })).id;
      await edit(secret, [
        { operation: 'insert_page', title: 'Secret plans', document: { markdown: 'How we configure the vault.' } },
      ]);
      await server.request('PATCH', `/v1/spaces/${secret}`, { body: { defaultLevel: null } });
    });

    it('a member never finds a page of a space hidden from them; a grant shows it', async () => {
      const reader = await server.member('read');
      expect(await orgTitles('configure', { token: reader.token })).toEqual([
        'Configuring the server',
        'Release notes',
      ]);
      expect(await orgTitles('vault', { token: reader.token })).toEqual([]);
      expect((await searchSpace(secret, 'vault', { token: reader.token })).status).toBe(404);
      // The admin sees everything.
      expect(await orgTitles('vault')).toEqual(['Secret plans']);
      const res = await searchOrg('configure');
      expect((res.body.items as Array<{ id: string; title: string }>).map((s) => s.title)).toEqual([
        'Guides',
        'Secret',
      ]);
      await server.request('POST', `/v1/spaces/${secret}/permissions`, { body: { role: 'read', users: [reader.id] } });
      expect(await orgTitles('vault', { token: reader.token })).toEqual(['Secret plans']);
      expect(await titles(searchSpace(secret, 'vault', { token: reader.token }))).toEqual(['Secret plans']);
    });

    it('a guest finds nothing without grants; a removed member and outsiders get 404', async () => {
      const guest = await server.member(null);
      const res = await searchOrg('configure', { token: guest.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ items: [], count: 0 });
      expect((await searchSpace(guides, 'configure', { token: guest.token })).status).toBe(404);

      const leaving = await server.member('read');
      expect(await orgTitles('configure', { token: leaving.token })).toHaveLength(2);
      expect((await server.request('DELETE', `${org()}/members/${leaving.id}`)).status).toBe(205);
      expect((await searchOrg('configure', { token: leaving.token })).status).toBe(404);
      expect((await searchSpace(guides, 'configure', { token: leaving.token })).status).toBe(404);

      expect((await server.request('GET', `${org()}/search?query=x`, { token: null })).status).toBe(401);
    });

    it("another organization's admin finds only their own pages", async () => {
      const outsider = await server.signup('outsider');
      const theirs = await server.request('POST', '/v1/orgs', { body: { title: 'Elsewhere' }, token: outsider.token });
      const theirSpace = (await newSpace(server, theirs.body.id, { title: 'Their docs', token: outsider.token })).id;
      await edit(
        theirSpace,
        [{ operation: 'insert_page', title: 'Their configure page', document: { markdown: 'Vault too.' } }],
        outsider.token,
      );
      expect((await searchOrg('configure', { token: outsider.token })).status).toBe(404);
      expect((await searchSpace(guides, 'configure', { token: outsider.token })).status).toBe(404);
      expect(await orgTitles('configure vault', { token: outsider.token, orgId: theirs.body.id })).toEqual([
        'Their configure page',
      ]);
      expect(await orgTitles('their')).toEqual([]);
    });
  });

  describe('freshness', () => {
    it('follows merges: edits, renames, moves and deleted pages; never an unmerged change', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Fresh' })).id;
      const made = await edit(id, [
        { operation: 'insert_page', title: 'Alpha page', document: { markdown: 'A zebra lives here.' } },
        { operation: 'insert_page', title: 'Parent', document: { markdown: 'Top.' } },
      ]);
      const alpha = made[0]!.page;
      const parent = made[1]!.page;
      expect(await titles(searchSpace(id, 'zebra'))).toEqual(['Alpha page']);

      await edit(id, [{ operation: 'update_page', page: alpha.id, document: { markdown: 'A giraffe lives here.' } }]);
      expect(await titles(searchSpace(id, 'zebra'))).toEqual([]);
      expect(await titles(searchSpace(id, 'giraffe'))).toEqual(['Alpha page']);

      await edit(id, [{ operation: 'update_page', page: alpha.id, title: 'Okapi page' }]);
      expect(await titles(searchSpace(id, 'okapi'))).toEqual(['Okapi page']);
      expect(await titles(searchSpace(id, 'alpha'))).toEqual([]);

      await edit(id, [{ operation: 'update_page', page: alpha.id, into: parent.id }]);
      const moved = ((await searchSpace(id, 'okapi')).body.items as PageResult[])[0]!;
      expect(moved.path).toBe('parent/alpha-page');

      // A change request not merged is not the space's content.
      const cr = await server.request('POST', `/v1/spaces/${id}/change-requests`, { body: {} });
      await server.request('POST', `/v1/spaces/${id}/change-requests/${cr.body.id}/content`, {
        body: { changes: [{ operation: 'update_page', page: alpha.id, document: { markdown: 'Unmerged lemur.' } }] },
      });
      expect(await titles(searchSpace(id, 'lemur'))).toEqual([]);

      await edit(id, [{ operation: 'delete_page', page: parent.id }]);
      expect(await titles(searchSpace(id, 'okapi'))).toEqual([]);
      expect(await titles(searchSpace(id, 'top'))).toEqual([]);
    });

    it('finds an import into the space at once; one into a change request once it is merged', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Imported' })).id;
      const upload = (path: string, markdown: string) =>
        server.request('POST', `${path}/content/import?source=markdown`, {
          rawBody: markdown,
          headers: { 'content-type': 'text/markdown' },
        });
      const direct = await upload(`/v1/spaces/${id}`, '# Narwhal tusks\n\nThe narwhal is a whale.\n');
      expect(direct.status).toBe(201);
      expect(await titles(searchSpace(id, 'narwhal'))).toEqual(['Narwhal tusks']);

      const cr = await server.request('POST', `/v1/spaces/${id}/change-requests`, { body: {} });
      const later = await upload(`/v1/spaces/${id}/change-requests/${cr.body.id}`, '# Beluga songs\n\nBelugas sing.\n');
      expect(later.status).toBe(201);
      expect(await titles(searchSpace(id, 'beluga'))).toEqual([]);
      expect((await server.request('POST', `/v1/spaces/${id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
      expect(await titles(searchSpace(id, 'beluga'))).toEqual(['Beluga songs']);
    });

    it('leaves deleted spaces out, brings restored ones back, and finds a duplicate at once', async () => {
      const id = (await newSpace(server, server.orgId, { title: 'Trashable' })).id;
      await edit(id, [{ operation: 'insert_page', title: 'Wombat facts', document: { markdown: 'Cubes.' } }]);
      expect(await orgTitles('wombat')).toEqual(['Wombat facts']);
      expect((await server.request('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
      expect(await orgTitles('wombat')).toEqual([]);
      expect(await titles(searchSpace(id, 'wombat'))).toEqual([]);
      expect((await server.request('POST', `/v1/spaces/${id}/restore`)).status).toBe(200);
      expect(await orgTitles('wombat')).toEqual(['Wombat facts']);

      const copy = await server.request('POST', `/v1/spaces/${id}/duplicate`);
      expect(copy.status).toBe(201);
      const res = await searchOrg('wombat');
      expect((res.body.items as Array<{ id: string }>).map((s) => s.id).sort()).toEqual([id, copy.body.id].sort());
      expect(await titles(searchSpace(copy.body.id, 'cubes'))).toEqual(['Wombat facts']);
    });
  });
});

describeEachDialect('organization e-mail domains', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('lists the caller’s organizations of their own e-mail domain, and only that domain', async () => {
    const user = await server.signup('domain');
    const domain = user.email.split('@')[1]!;
    await server.request('PATCH', `/v1/orgs/${server.orgId}`, { body: { emailDomains: [domain] } });
    // E-mails are not verified: a non-member learns nothing about the organization.
    const outside = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(outside.status).toBe(200);
    expect(outside.body.organizations).toEqual([]);
    const link = await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'read' } });
    await server.request('POST', `/v1/orgs/${server.orgId}/invites/${link.body.id}`, { token: user.token });
    const res = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
    const other = await server.request('GET', '/v1/email-domains/other.org/orgs', { token: user.token });
    expect(other.status).toBe(403);
    expect((await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: null })).status).toBe(401);
  });
});
