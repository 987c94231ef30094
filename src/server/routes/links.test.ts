import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import {
  editContent,
  mergeChangeRequest,
  newChangeRequest,
  newSite,
  newSpace,
  publishSite,
  seedContent,
} from '../test/factories.js';
import { backlinkListSchema, linkListSchema } from '../../shared/contract/links.js';
import { transaction } from '../storage/db.js';
import {
  findRevision,
  findSpace,
  insertRevision,
  purgeSpacesDeletedBefore,
  updateSpace,
} from '../storage/repos/spaces.js';
import * as repo from '../storage/repos/links.js';
import { syncScope } from '../domain/links/maintain.js';
import { spaceRevisionChanged } from '../domain/links/hooks.js';
import { buildLinks } from '../jobs/links.js';
import { RevisionReader, RevisionWriter } from '../domain/content/model.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

describeEachDialect('links and backlinks', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const get = async (path: string, token?: string) => {
    const res = await server.request('GET', path, { token });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const links = async (path: string, token?: string) => {
    const body = await get(path, token);
    expect(() => linkListSchema.parse(body)).not.toThrow();
    return body;
  };
  /** Every item of a list, following next.page; checks `count` against what was listed. */
  const all = async (path: string) => {
    const items: any[] = [];
    let page: string | undefined;
    let count: number | undefined;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const body = await get(`${path}${page ? `${sep}page=${encodeURIComponent(page)}` : ''}`);
      items.push(...body.items);
      count = body.count;
      page = body.next?.page;
    } while (page);
    expect(items.length).toBe(count);
    return items;
  };
  /** A target in short: "page:<id>#anchor", "page?<missing ref>", "file:<id>", "file?<ref>", "url:<url>". */
  const target = (t: any): string => {
    if (t.kind === 'url') return `url:${t.url}`;
    const anchor = t.internalLocation ? `#${t.internalLocation.anchor}` : '';
    if (t.kind === 'page') return t.page ? `page:${t.page.id}${anchor}` : `page?${t.reference}${anchor}`;
    return t.file ? `file:${t.file.id}` : `file?${t.reference}`;
  };
  /** Items in short: target (and "(embedded)" for images) → "status <- titles of the pages linking". */
  const summary = (items: any[]) =>
    Object.fromEntries(
      items.map((i) => [
        `${target(i.targetReference)}${i.relation === 'dependsOn' ? ' (embedded)' : ''}`,
        `${i.status} <- ${i.locationReferences
          .map((l: any) => l.page.title)
          .sort()
          .join(',')}`,
      ]),
    );
  const spaceLinks = async (spaceId: string) => summary(await all(`/v1/spaces/${spaceId}/links?limit=1000`));

  /**
   * The scope's rows equal those of a scope built from nothing at the same revision: what each step maintained
   * incrementally is exactly what a full build gives.
   */
  async function expectSameAsRebuilt(scopeId: string) {
    const db = server.storage.db;
    const scope = (await repo.findScope(db, scopeId))!;
    const check = `check-${newId()}`;
    await transaction(db, (tx) =>
      findRevision(tx, scope.revision_id).then((revision) =>
        syncScope(
          tx,
          { id: check, spaceId: scope.space_id, changeRequestId: null, revision: revision! },
          { appBase: server.config.publicUrl },
        ),
      ),
    );
    const rows = async (id: string) => {
      const strip = <T extends { scope_id: string }>(list: T[]) =>
        list.map(({ scope_id: _, ...rest }) => JSON.stringify(rest)).sort();
      return {
        scope: await repo.findScope(db, id).then((s) => [s!.revision_id, s!.targets, s!.broken, s!.in_app]),
        pages: strip(await db.selectFrom('link_pages').selectAll().where('scope_id', '=', id).execute()),
        files: strip(await db.selectFrom('link_files').selectAll().where('scope_id', '=', id).execute()),
        links: strip(await db.selectFrom('links').selectAll().where('scope_id', '=', id).execute()),
        deps: strip(await db.selectFrom('link_deps').selectAll().where('scope_id', '=', id).execute()),
        targets: strip(await db.selectFrom('link_targets').selectAll().where('scope_id', '=', id).execute()),
      };
    };
    const [kept, rebuilt] = [await rows(scopeId), await rows(check)];
    await repo.deleteScope(db, check);
    expect(kept).toEqual(rebuilt);
  }

  describe('in a space', () => {
    let space: string;
    let home: string;
    let setup: string;
    let file: string;

    beforeAll(async () => {
      space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_files', files: [{ name: 'logo.png', base64: PNG }] },
        { operation: 'insert_page', title: 'Home', document: { markdown: '# Welcome\n\nHello.' } },
        { operation: 'insert_page', title: 'Guides', ref: 'guides' },
        {
          operation: 'insert_page',
          title: 'Setup',
          into: 'guides',
          document: { markdown: '## Install\n\nSteps.\n\n## Configure\n\nMore.' },
        },
      ]);
      home = made.changes[0].page.id;
      setup = made.changes[2].page.id;
      file = made.insertedFiles![0].id;
      await seedContent(server, space, [
        {
          operation: 'update_page',
          page: home,
          document: {
            markdown: [
              '# Welcome',
              `[by id](/pages/${setup}) [by path](/pages/guides/setup) [relative](./guides/setup.md)`,
              `[anchor](/pages/${setup}#install) [bad anchor](/pages/${setup}#nowhere) [here](#welcome)`,
              `[file by id](/files/${file}) ![logo](./logo.png) [external](https://example.com/docs)`,
              `[console](http://docs.test/o/${server.orgId}/spaces/${space}) [site](http://docs.test/sites/abc)`,
              '[missing page](/pages/nowhere) [missing md](./gone.md) [missing file](./nothing.png)',
              '[relative url](docs/elsewhere) [mail](mailto:team@example.com) [by id again](/pages/guides/setup/)',
            ].join('\n\n'),
          },
        },
        { operation: 'update_page', page: setup, document: { markdown: '## Install\n\nSee [home](../home.md).' } },
      ]);
    });

    it('lists every kind of link with its status, its target and the pages it is on', async () => {
      const body = await links(`/v1/spaces/${space}/links?limit=1000`);
      expect(summary(body.items)).toEqual({
        [`page:${setup}`]: 'ok <- Home', // by id, by path and relative: one target
        [`page:${setup}#install`]: 'ok <- Home',
        [`page:${setup}#nowhere`]: 'broken <- Home',
        [`page:${home}#welcome`]: 'ok <- Home',
        [`page:${home}`]: 'ok <- Setup', // ../home.md from guides/setup
        [`file:${file}`]: 'ok <- Home',
        [`file:${file} (embedded)`]: 'ok <- Home',
        'url:https://example.com/docs': 'ok <- Home',
        [`url:http://docs.test/o/${server.orgId}/spaces/${space}`]: 'in-app <- Home',
        'url:http://docs.test/sites/abc': 'ok <- Home', // a published site is where readers go
        'page?nowhere': 'broken <- Home',
        'page?gone': 'broken <- Home',
        'file?nothing.png': 'broken <- Home',
        'url:docs/elsewhere': 'ok <- Home', // names no page or file: left as written, as the site does
        'url:mailto:team@example.com': 'ok <- Home',
      });
      expect(body.count).toBe(15);
      expect(body.stats).toEqual({ total: 15, broken: { total: 4 } });
      const page = body.items.find(
        (i: any) => i.targetReference.page?.id === setup && !i.targetReference.internalLocation,
      );
      const revision = (await get(`/v1/spaces/${space}`)).revision;
      // The organization and the space as the contract's objects (0.143.2 ContentLocation*).
      const context = {
        organization: expect.objectContaining({ object: 'organization', id: server.orgId }),
        space: expect.objectContaining({ object: 'space', id: space }),
      };
      expect(page).toEqual({
        status: 'ok',
        relation: 'reference',
        targetReference: {
          kind: 'page',
          ...context,
          page: {
            id: setup,
            title: 'Setup',
            type: 'document',
            path: 'guides/setup',
            urls: { app: `http://docs.test/o/${server.orgId}/spaces/${space}/pages/${setup}` },
          },
        },
        locationReferences: [
          {
            kind: 'page',
            ...context,
            page: {
              id: home,
              title: 'Home',
              type: 'document',
              path: 'home',
              urls: { app: `http://docs.test/o/${server.orgId}/spaces/${space}/pages/${home}` },
            },
          },
        ],
      });
      const logo = body.items.find((i: any) => i.relation === 'dependsOn');
      expect(logo.targetReference).toEqual({
        kind: 'file',
        ...context,
        file: {
          id: file,
          name: 'logo.png',
          contentType: 'image/png',
          size: expect.any(Number),
          // Read from the PNG's header when it was inserted.
          dimensions: { width: 1, height: 1 },
          downloadURL: `http://docs.test/v1/spaces/${space}/revisions/${revision}/files/${file}/download`,
        },
      });
      const missing = body.items.find((i: any) => target(i.targetReference) === 'page?gone');
      expect(missing.targetReference).toEqual({ kind: 'page', ...context, reference: 'gone' });
      await expectSameAsRebuilt(space);
    });

    it('filters by status, with the count of what matches', async () => {
      const broken = await links(`/v1/spaces/${space}/links?status=broken`);
      expect(broken.items.map((i: any) => target(i.targetReference)).sort()).toEqual(
        ['file?nothing.png', 'page?gone', 'page?nowhere', `page:${setup}#nowhere`].sort(),
      );
      expect(broken.items.every((i: any) => i.status === 'broken')).toBe(true);
      expect(broken.count).toBe(4);
      expect(broken.stats).toEqual({ total: 15, broken: { total: 4 } });
      const inApp = await links(`/v1/spaces/${space}/links?status=in-app`);
      expect(inApp.items).toHaveLength(1);
      expect(inApp.count).toBe(1);
      const ok = await links(`/v1/spaces/${space}/links?status=ok`);
      expect(ok.count).toBe(10);
      expect(ok.items.every((i: any) => i.status === 'ok')).toBe(true);
    });

    it('pages through the list with next.page, each target once', async () => {
      const whole = await links(`/v1/spaces/${space}/links?limit=1000`);
      const paged = await all(`/v1/spaces/${space}/links?limit=4`);
      expect(paged).toHaveLength(15);
      expect(paged).toEqual(whole.items);
      const first = await links(`/v1/spaces/${space}/links?limit=4`);
      expect(first.items).toHaveLength(4);
      expect(first.next.page).toEqual(expect.any(String));
      expect(first.count).toBe(15);
      const brokenPaged = await all(`/v1/spaces/${space}/links?status=broken&limit=1`);
      expect(brokenPaged).toHaveLength(4);
    });

    it('lists the links of one page, in the order the page first links to them', async () => {
      const body = await links(`/v1/spaces/${space}/content/page/${home}/links?limit=1000`);
      expect(body.items.map((i: any) => target(i.targetReference))).toEqual([
        `page:${setup}`,
        `page:${setup}#install`,
        `page:${setup}#nowhere`,
        `page:${home}#welcome`,
        `file:${file}`,
        `file:${file}`,
        'url:https://example.com/docs',
        `url:http://docs.test/o/${server.orgId}/spaces/${space}`,
        'url:http://docs.test/sites/abc',
        'page?nowhere',
        'page?gone',
        'file?nothing.png',
        'url:docs/elsewhere',
        'url:mailto:team@example.com',
      ]);
      expect(body.items.every((i: any) => i.locationReferences.length === 1)).toBe(true);
      expect(body.items[0].locationReferences[0].page.id).toBe(home);
      expect(body.stats).toEqual({ total: 14, broken: { total: 4 } });
      expect(await all(`/v1/spaces/${space}/content/page/${home}/links?limit=3`)).toEqual(body.items);
      const broken = await links(`/v1/spaces/${space}/content/page/${home}/links?status=broken`);
      expect(broken.count).toBe(4);
      expect(broken.items.map((i: any) => i.status)).toEqual(['broken', 'broken', 'broken', 'broken']);
      const setupLinks = await links(`/v1/spaces/${space}/content/page/${setup}/links`);
      expect(summary(setupLinks.items)).toEqual({ [`page:${home}`]: 'ok <- Setup' });
    });

    it('lists the pages linking to a file or showing it', async () => {
      const body = await get(`/v1/spaces/${space}/content/files/${file}/backlinks`);
      expect(() => backlinkListSchema.parse(body)).not.toThrow();
      expect(body.items.map((l: any) => l.page.id)).toEqual([home]);
      expect(body.count).toBe(1);
      const more = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Gallery', document: { markdown: `![again](/files/${file})` } },
        { operation: 'insert_page', title: 'Plain', document: { markdown: 'No links here.' } },
        { operation: 'insert_page', title: 'Downloads', document: { markdown: '[get it](logo.png)' } },
      ]);
      const ids = [home, more.changes[0].page.id, more.changes[2].page.id].sort();
      const after = await all(`/v1/spaces/${space}/content/files/${file}/backlinks?limit=1`);
      expect(after.map((l: any) => l.page.id)).toEqual(ids);
      expect(after[0]).toMatchObject({ kind: 'page', organization: { id: server.orgId }, space: { id: space } });
      await expectSameAsRebuilt(space);
    });

    it('answers 404 for a page or a file that is not in the content, 400 naming a bad parameter', async () => {
      for (const path of [
        `/v1/spaces/${space}/content/page/nope/links`,
        `/v1/spaces/${space}/content/files/nope/backlinks`,
        `/v1/spaces/nope/links`,
        `/v1/spaces/${space}/change-requests/nope/links`,
      ]) {
        const res = await server.request('GET', path);
        expect(res.status, path).toBe(404);
      }
      for (const [query, field] of [
        ['status=dead', 'status'],
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=abc', 'limit'],
        ['page=not-a-cursor', 'page'],
      ]) {
        for (const path of [`/v1/spaces/${space}/links`, `/v1/spaces/${space}/content/page/${home}/links`]) {
          const res = await server.request('GET', `${path}?${query}`);
          expect(res.status, `${path}?${query}`).toBe(400);
          expect(JSON.stringify(res.body.error), query).toContain(field);
        }
      }
      const cursor = Buffer.from(JSON.stringify(['x'])).toString('base64url');
      const res = await server.request('GET', `/v1/spaces/${space}/content/page/${home}/links?page=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('page');
      const backlinks = await server.request('GET', `/v1/spaces/${space}/content/files/${file}/backlinks?limit=0`);
      expect(backlinks.status).toBe(400);
    });
  });

  describe('kept up to date with each merge', () => {
    it('breaks the links to a deleted page, and drops the links it held', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Target', document: { markdown: '# Part\n\n[back](./source.md)' } },
        {
          operation: 'insert_page',
          title: 'Source',
          document: { markdown: '[a](./target.md) [b](/pages/target#part)' },
        },
      ]);
      const [targetId, sourceId] = [made.changes[0].page.id, made.changes[1].page.id];
      expect(await spaceLinks(space)).toEqual({
        [`page:${targetId}`]: 'ok <- Source',
        [`page:${targetId}#part`]: 'ok <- Source',
        [`page:${sourceId}`]: 'ok <- Target',
      });
      await seedContent(server, space, [{ operation: 'delete_page', page: targetId }]);
      expect(await spaceLinks(space)).toEqual({
        'page?target': 'broken <- Source',
        'page?target#part': 'broken <- Source',
      });
      const stats = (await links(`/v1/spaces/${space}/links`)).stats;
      expect(stats).toEqual({ total: 2, broken: { total: 2 } });
      await expectSameAsRebuilt(space);
    });

    it('follows pages that move or are renamed (path links), subpages included', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Guides', ref: 'guides' },
        { operation: 'insert_page', title: 'Setup', ref: 'setup', into: 'guides', document: { markdown: 'x' } },
        {
          operation: 'insert_page',
          title: 'Deep',
          into: 'setup',
          document: { markdown: '[up](../setup.md) [home](../../home.md) [id](/pages/home)' },
        },
        {
          operation: 'insert_page',
          title: 'Home',
          document: { markdown: '[path](/pages/guides/setup) [deep](./guides/setup/deep.md)' },
        },
      ]);
      const [guides, setup, deep, home] = made.changes.map((c: any) => c.page.id);
      expect(await spaceLinks(space)).toEqual({
        [`page:${setup}`]: 'ok <- Deep,Home',
        [`page:${home}`]: 'ok <- Deep',
        [`page:${deep}`]: 'ok <- Home',
      });
      // Renaming the parent moves every page under it: path links to them break, relative links from them follow.
      await seedContent(server, space, [{ operation: 'update_page', page: guides, slug: 'manuals' }]);
      expect(await spaceLinks(space)).toEqual({
        'page?guides/setup': 'broken <- Home',
        'page?guides/setup/deep': 'broken <- Home',
        [`page:${setup}`]: 'ok <- Deep',
        [`page:${home}`]: 'ok <- Deep',
      });
      await expectSameAsRebuilt(space);
      // A page taking the old path is what the links name now.
      const again = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Guides', slug: 'guides', ref: 'g' },
        { operation: 'insert_page', title: 'New setup', slug: 'setup', into: 'g' },
      ]);
      const newSetup = again.changes[1].page.id;
      expect(await spaceLinks(space)).toEqual({
        [`page:${newSetup}`]: 'ok <- Home',
        'page?guides/setup/deep': 'broken <- Home',
        [`page:${setup}`]: 'ok <- Deep',
        [`page:${home}`]: 'ok <- Deep',
      });
      // Moving the deep page to the top: its relative links now start from there.
      await seedContent(server, space, [{ operation: 'update_page', page: deep, into: null }]);
      expect(await spaceLinks(space)).toEqual({
        [`page:${newSetup}`]: 'ok <- Home',
        'page?guides/setup/deep': 'broken <- Home',
        'page?setup': 'broken <- Deep', // ../setup.md from "deep"
        [`page:${home}`]: 'ok <- Deep', // ../../home.md stops at the top; /pages/home is by path
      });
      await expectSameAsRebuilt(space);
    });

    it('follows headings for anchors, and files and pages that appear', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Doc', document: { markdown: 'No headings yet.' } },
        {
          operation: 'insert_page',
          title: 'Links',
          document: { markdown: '[a](./doc.md#usage) ![i](./diagram.png) [later](./later.md)' },
        },
      ]);
      const doc = made.changes[0].page.id;
      expect(await spaceLinks(space)).toEqual({
        [`page:${doc}#usage`]: 'broken <- Links',
        'file?diagram.png (embedded)': 'broken <- Links',
        'page?later': 'broken <- Links',
      });
      const added = await seedContent(server, space, [
        { operation: 'update_page', page: doc, document: { markdown: '# Usage\n\nNow documented.' } },
        { operation: 'insert_files', files: [{ name: 'diagram.png', base64: PNG }] },
        { operation: 'insert_page', title: 'Later', document: { markdown: 'Here.' } },
      ]);
      const [fileId, later] = [added.insertedFiles![0].id, added.changes[1].page.id];
      expect(await spaceLinks(space)).toEqual({
        [`page:${doc}#usage`]: 'ok <- Links',
        [`file:${fileId} (embedded)`]: 'ok <- Links',
        [`page:${later}`]: 'ok <- Links',
      });
      await expectSameAsRebuilt(space);
      // The heading goes: the anchor link breaks again.
      await seedContent(server, space, [{ operation: 'update_page', page: doc, document: { markdown: 'Gone.' } }]);
      expect((await spaceLinks(space))[`page:${doc}#usage`]).toBe('broken <- Links');
      await expectSameAsRebuilt(space);
      // The page's title is its top heading (an import took it out of the body): its anchor lands on the page.
      await seedContent(server, space, [{ operation: 'update_page', page: doc, title: 'Usage' }]);
      expect((await spaceLinks(space))[`page:${doc}#usage`]).toBe('ok <- Links');
      await expectSameAsRebuilt(space);
      await seedContent(server, space, [{ operation: 'update_page', page: doc, title: 'Manual' }]);
      expect((await spaceLinks(space))[`page:${doc}#usage`]).toBe('broken <- Links');
      await expectSameAsRebuilt(space);
    });

    it('keeps a reworded heading’s old id working: in the report, on the published page, through change requests', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Renamed headings' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Doc', document: { markdown: 'Intro.\n\n## Install steps\n\nRun it.' } },
        { operation: 'insert_page', title: 'Links', document: { markdown: '[install](./doc.md#install-steps)' } },
      ]);
      const doc = made.changes[0].page.id;
      const reword = (markdown: string) =>
        seedContent(server, space, [{ operation: 'update_page', page: doc, document: { markdown } }]);
      await reword('Intro.\n\n## Installing\n\nRun it.');
      expect((await spaceLinks(space))[`page:${doc}#install-steps`]).toBe('ok <- Links');
      await expectSameAsRebuilt(space);
      const site = await newSite(server, server.orgId, { title: 'Renamed', spaces: [space] });
      const published = (await publishSite(server, server.orgId, site.id)).urls.published as string;
      const page = async () => (await fetch(`${server.url}${new URL(published).pathname}/doc`)).text();
      expect(await page()).toMatch(/<h2 id="installing"[^>]*><span id="install-steps"><\/span>Installing/);

      // Reworded again: both earlier ids lead to it.
      await reword('Intro.\n\n## Set up\n\nRun it.');
      const html = await page();
      expect(html).toMatch(/<h2 id="set-up"[^>]*>(<span id="(install-steps|installing)"><\/span>){2}Set up/);

      // Two change requests each reword another heading of the page: the merged page keeps both old ids.
      await reword('Intro.\n\n## Set up\n\nRun it.\n\n## Usage\n\nUse it.\n\n## Limits\n\nFew.');
      const a = await newChangeRequest(server, space, { subject: 'A' });
      const b = await newChangeRequest(server, space, { subject: 'B' });
      await editContent(server, space, a.id, [
        {
          operation: 'update_page',
          page: doc,
          document: { markdown: 'Intro.\n\n## Set up\n\nRun it.\n\n## Using it\n\nUse it.\n\n## Limits\n\nFew.' },
        },
      ]);
      await editContent(server, space, b.id, [
        {
          operation: 'update_page',
          page: doc,
          document: { markdown: 'Intro.\n\n## Set up\n\nRun it.\n\n## Usage\n\nUse it.\n\n## Known limits\n\nFew.' },
        },
      ]);
      await mergeChangeRequest(server, space, a.id);
      await mergeChangeRequest(server, space, b.id);
      const merged = await page();
      expect(merged).toMatch(/<h2 id="using-it"[^>]*><span id="usage"><\/span>/);
      expect(merged).toMatch(/<h2 id="known-limits"[^>]*><span id="limits"><\/span>/);

      // A heading takes an old id as its own again: it is that heading's, once.
      await reword('Intro.\n\n## Set up\n\nRun it.\n\n## Install steps\n\nAgain.');
      const again = await page();
      expect(again.match(/id="install-steps"/g)).toHaveLength(1);
      expect(again).toMatch(/<h2 id="install-steps"/);
      expect((await spaceLinks(space))[`page:${doc}#install-steps`]).toBe('ok <- Links');
      await expectSameAsRebuilt(space);
    });

    it('checks the links of reusable content where pages include it, and follows the content’s edits', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Included links' })).id;
      const made = await seedContent(server, space, [
        {
          operation: 'insert_reusable_content',
          title: 'Outer',
          document: { markdown: 'See [setup](./doc.md).\n\n{% include "../.gitbook/includes/inner.md" %}' },
        },
        {
          operation: 'insert_reusable_content',
          title: 'Inner',
          document: { markdown: '[gone](./missing.md) and [setup](./doc.md)' },
        },
        { operation: 'insert_page', title: 'Doc', document: { markdown: 'Setup.' } },
        {
          operation: 'insert_page',
          title: 'Guide',
          document: { markdown: 'Read [doc](./doc.md).\n\n{% include "../.gitbook/includes/outer.md" %}' },
        },
      ]);
      const doc = made.pageIds[2]!;
      const inner = (await server.request('GET', `/v1/spaces/${space}/content`)).body.reusableContents.find(
        (r: { title: string }) => r.title === 'Inner',
      ).id as string;
      // Two levels down, on the page that shows them; a link the page has itself counts once.
      expect(await spaceLinks(space)).toEqual({
        [`page:${doc}`]: 'ok <- Guide',
        'page?missing': 'broken <- Guide',
      });
      await expectSameAsRebuilt(space);

      // The content is mended: the page that includes it, not changed itself, is read again.
      await seedContent(server, space, [
        { operation: 'update_reusable_content', reusableContent: inner, document: { markdown: '[doc](./doc.md)' } },
      ]);
      expect(await spaceLinks(space)).toEqual({ [`page:${doc}`]: 'ok <- Guide' });
      await expectSameAsRebuilt(space);

      // A heading of an included content is an anchor of the page that shows it.
      const other = await seedContent(server, space, [
        {
          operation: 'update_reusable_content',
          reusableContent: inner,
          document: { markdown: '## Setup steps\n\n[doc](./doc.md)' },
        },
        { operation: 'insert_page', title: 'Other', document: { markdown: '[steps](./guide.md#setup-steps)' } },
      ]);
      const guide = made.pageIds[3]!;
      expect((await spaceLinks(space))[`page:${guide}#setup-steps`]).toBe('ok <- Other');
      await expectSameAsRebuilt(space);
      await seedContent(server, space, [
        { operation: 'update_reusable_content', reusableContent: inner, document: { markdown: '## Other steps' } },
      ]);
      expect((await spaceLinks(space))[`page:${guide}#setup-steps`]).toBe('broken <- Other');
      await expectSameAsRebuilt(space);
      await seedContent(server, space, [
        { operation: 'update_reusable_content', reusableContent: inner, document: { markdown: '[doc](./doc.md)' } },
        { operation: 'delete_page', page: other.pageIds[1]! },
      ]);

      // In a change request too: its own scope follows its own content.
      const cr = await newChangeRequest(server, space, { subject: 'Break it' });
      await editContent(server, space, cr.id, [
        { operation: 'update_reusable_content', reusableContent: inner, document: { markdown: '[x](./nowhere.md)' } },
      ]);
      const crLinks = summary(await all(`/v1/spaces/${space}/change-requests/${cr.id}/links?limit=1000`));
      expect(crLinks['page?nowhere']).toBe('broken <- Guide');
      expect(await spaceLinks(space)).toEqual({ [`page:${doc}`]: 'ok <- Guide' });

      // Deleted: its links go with it.
      await seedContent(server, space, [{ operation: 'delete_reusable_content', reusableContent: inner }]);
      expect(await spaceLinks(space)).toEqual({ [`page:${doc}`]: 'ok <- Guide' });
      await expectSameAsRebuilt(space);
    });

    it('breaks the links to a file that is removed (any change of the space revision goes through the hook)', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_files', files: [{ name: 'a.png', base64: PNG }] },
        { operation: 'insert_page', title: 'Uses', document: { markdown: '![a](./a.png) [dl](/files/FILE)' } },
      ]);
      const fileId = made.insertedFiles![0].id;
      await seedContent(server, space, [
        {
          operation: 'update_page',
          page: made.changes[0].page.id,
          document: { markdown: `![a](./a.png) [dl](/files/${fileId})` },
        },
      ]);
      expect(await spaceLinks(space)).toEqual({
        [`file:${fileId} (embedded)`]: 'ok <- Uses',
        [`file:${fileId}`]: 'ok <- Uses',
      });
      // The API has no operation removing a file: write such a revision directly, as any future one would.
      const db = server.storage.db;
      await transaction(db, async (tx) => {
        const row = (await findSpace(tx, space))!;
        const head = (await findRevision(tx, row.revision_id))!;
        const writer = new RevisionWriter(new RevisionReader(tx, head));
        writer.setFile(fileId, null);
        const roots = await writer.commit();
        const id = newId();
        await insertRevision(tx, { ...head, id, parents: JSON.stringify([head.id]), created_at: nowIso(), ...roots });
        await updateSpace(tx, space, { revision_id: id });
        await spaceRevisionChanged(tx, space, head, (await findRevision(tx, id))!, server.config.publicUrl);
      });
      expect(await spaceLinks(space)).toEqual({
        'file?a.png (embedded)': 'broken <- Uses',
        [`file?${fileId}`]: 'broken <- Uses',
      });
      expect((await server.request('GET', `/v1/spaces/${space}/content/files/${fileId}/backlinks`)).status).toBe(404);
      await expectSameAsRebuilt(space);
    });

    it('reads link pages as links', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Target', document: { markdown: 'x' } },
        { operation: 'insert_page', title: 'Shortcut', type: 'link', href: '/pages/target' },
        { operation: 'insert_page', title: 'Out', type: 'link', href: 'https://example.org' },
      ]);
      expect(await spaceLinks(space)).toEqual({
        [`page:${made.changes[0].page.id}`]: 'ok <- Shortcut',
        'url:https://example.org': 'ok <- Out',
      });
      await seedContent(server, space, [
        { operation: 'update_page', page: made.changes[1].page.id, href: '/pages/other' },
      ]);
      expect(await spaceLinks(space)).toEqual({
        'page?other': 'broken <- Shortcut',
        'url:https://example.org': 'ok <- Out',
      });
      await expectSameAsRebuilt(space);
    });
  });

  describe('under load', () => {
    it('lists at most 100 pages per target, fewer for a long page of targets', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const cr = (await newChangeRequest(server, space)).id;
      await editContent(server, space, cr, [{ operation: 'insert_page', title: 'Hub', document: { markdown: 'x' } }]);
      for (let batch = 0; batch < 3; batch++) {
        await editContent(
          server,
          space,
          cr,
          Array.from({ length: 40 }, (_, i) => ({
            operation: 'insert_page',
            title: `Spoke ${batch * 40 + i}`,
            document: { markdown: '[hub](./hub.md)' },
          })),
        );
      }
      await mergeChangeRequest(server, space, cr);
      const body = await links(`/v1/spaces/${space}/links`);
      expect(body.items).toHaveLength(1);
      expect(body.items[0].locationReferences).toHaveLength(100);
      const ids = body.items[0].locationReferences.map((l: any) => l.page.id);
      expect(ids).toEqual([...ids].sort());
      const long = await links(`/v1/spaces/${space}/links?limit=1000`);
      expect(long.items[0].locationReferences).toHaveLength(5);
    });

    it('stays exact when merges and edits race', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(
        server,
        space,
        Array.from({ length: 6 }, (_, i) => ({
          operation: 'insert_page',
          title: `Page ${i}`,
          document: { markdown: `[next](./page-${i + 1}.md)` },
        })),
      );
      const ids = made.changes.map((c: any) => c.page.id as string);
      const crs = await Promise.all(ids.map(() => newChangeRequest(server, space).then((cr) => cr.id)));
      // Each change request rewrites one page and deletes another's target; all are merged at once.
      await Promise.all(
        crs.map((cr, i) =>
          editContent(server, space, cr, [
            { operation: 'update_page', page: ids[i], document: { markdown: `[self](#x) [prev](./page-${i - 1}.md)` } },
          ]),
        ),
      );
      await links(`/v1/spaces/${space}/change-requests/${crs[0]}/links`); // one of them has links of its own
      const results = await Promise.all(
        crs.map((cr) => server.request('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)),
      );
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      await expectSameAsRebuilt(space);
      const current = await spaceLinks(space);
      expect(Object.keys(current).length).toBeGreaterThan(0);
    });

    it('goes with its space when the space is purged', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      await seedContent(server, space, [
        { operation: 'insert_page', title: 'A', document: { markdown: '[b](./b.md)' } },
      ]);
      const cr = (await newChangeRequest(server, space)).id;
      await links(`/v1/spaces/${space}/change-requests/${cr}/links`);
      const db = server.storage.db;
      expect(await repo.findScope(db, cr)).toBeDefined();
      expect((await server.request('DELETE', `/v1/spaces/${space}`)).status).toBe(205);
      await purgeSpacesDeletedBefore(db, '9999-12-31T00:00:00.000Z');
      for (const table of ['link_targets', 'links', 'link_deps', 'link_pages'] as const) {
        const left = await db.selectFrom(table).select('scope_id').where('scope_id', 'in', [space, cr]).execute();
        expect(left, table).toEqual([]);
      }
      expect(await repo.findScope(db, space)).toBeUndefined();
      expect(await repo.findScope(db, cr)).toBeUndefined();
    });
  });

  describe('in a change request', () => {
    it("reflects the change request's own edits, counts what it breaks, and leaves the space's alone", async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'A', document: { markdown: '[b](./b.md) [gone](./gone.md)' } },
        { operation: 'insert_page', title: 'B', document: { markdown: '[a](./a.md)' } },
      ]);
      const [a, b] = made.changes.map((c: any) => c.page.id);
      const before = await spaceLinks(space);
      expect(before).toEqual({ [`page:${b}`]: 'ok <- A', [`page:${a}`]: 'ok <- B', 'page?gone': 'broken <- A' });

      const cr = (await newChangeRequest(server, space)).id;
      // First read of a change request's links: a copy of the space's.
      const fresh = await links(`/v1/spaces/${space}/change-requests/${cr}/links`);
      expect(summary(fresh.items)).toEqual(before);
      expect(fresh.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 0 } });
      expect(fresh.items[0].targetReference.space).toMatchObject({ object: 'space', id: space });
      expect(fresh.items[0].locationReferences[0].page.urls.app).toContain('/change-requests/');

      await editContent(server, space, cr, [
        { operation: 'delete_page', page: b },
        { operation: 'insert_page', title: 'C', document: { markdown: '[a](/pages/a) [nope](/pages/nope)' } },
      ]);
      const crLinks = await links(`/v1/spaces/${space}/change-requests/${cr}/links`);
      expect(summary(crLinks.items)).toEqual({
        'page?b': 'broken <- A',
        [`page:${a}`]: 'ok <- C',
        'page?gone': 'broken <- A',
        'page?nope': 'broken <- C',
      });
      // Broken in the change request and not in the space: b (deleted here) and nope (new here).
      expect(crLinks.stats).toEqual({ total: 4, broken: { total: 3, changeRequest: 2 } });
      expect(await spaceLinks(space)).toEqual(before);
      await expectSameAsRebuilt(cr);

      const pageList = await links(`/v1/spaces/${space}/change-requests/${cr}/content/page/${a}/links`);
      expect(summary(pageList.items)).toEqual({ 'page?b': 'broken <- A', 'page?gone': 'broken <- A' });
      expect(pageList.stats).toEqual({ total: 2, broken: { total: 2, changeRequest: 1 } });
      expect(
        (await server.request('GET', `/v1/spaces/${space}/change-requests/${cr}/content/page/${b}/links`)).status,
      ).toBe(404);
      expect((await server.request('GET', `/v1/spaces/${space}/content/page/${b}/links`)).status).toBe(200);

      // More edits keep the change request's links in step (in the edit's transaction).
      await editContent(server, space, cr, [{ operation: 'insert_page', title: 'B', document: { markdown: 'back' } }]);
      const restored = await links(`/v1/spaces/${space}/change-requests/${cr}/links`);
      expect(restored.stats.broken).toEqual({ total: 2, changeRequest: 1 });
      await expectSameAsRebuilt(cr);

      await mergeChangeRequest(server, space, cr);
      const merged = await spaceLinks(space);
      expect(merged).toEqual(summary(restored.items));
      await expectSameAsRebuilt(space);
      expect(await repo.findScope(server.storage.db, cr)).toBeUndefined();
    });

    it('follows an update from the space, and lists file backlinks of its own content', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_page', title: 'Base', document: { markdown: 'x' } },
      ]);
      const cr = (await newChangeRequest(server, space)).id;
      const edited = await editContent(server, space, cr, [
        { operation: 'insert_files', files: [{ name: 'pic.png', base64: PNG }] },
        { operation: 'insert_page', title: 'Pics', document: { markdown: '![p](pic.png) [n](./news.md)' } },
      ]);
      const fileId = edited.insertedFiles![0].id;
      const backlinks = await get(`/v1/spaces/${space}/change-requests/${cr}/content/files/${fileId}/backlinks`);
      expect(backlinks.items.map((l: any) => l.page.title)).toEqual(['Pics']);
      expect(backlinks.items[0].organization).toMatchObject({ object: 'organization', id: server.orgId });
      expect((await server.request('GET', `/v1/spaces/${space}/content/files/${fileId}/backlinks`)).status).toBe(404);
      expect(summary(await all(`/v1/spaces/${space}/change-requests/${cr}/links`))['page?news']).toBe('broken <- Pics');
      // The space gets the page the change request links to; updating brings it in.
      await seedContent(server, space, [{ operation: 'insert_page', title: 'News', document: { markdown: 'y' } }]);
      const update = await server.request('POST', `/v1/spaces/${space}/change-requests/${cr}/update`);
      expect(update.body.result).toBe('update');
      const after = summary(await all(`/v1/spaces/${space}/change-requests/${cr}/links`));
      expect(Object.entries(after).filter(([k]) => k.startsWith('page'))).toEqual([
        [expect.stringMatching(/^page:/), 'ok <- Pics'],
      ]);
      await expectSameAsRebuilt(cr);
      void made;
    });
  });

  describe('rows built for content that has none', () => {
    it('builds them on first read, at start-up, after a PUBLIC_URL change, and for a duplicate', async () => {
      const space = (await newSpace(server, server.orgId, { title: 'Links' })).id;
      await seedContent(server, space, [
        {
          operation: 'insert_page',
          title: 'One',
          document: { markdown: '[two](./two.md) [app](http://docs.test/o/x)' },
        },
        { operation: 'insert_page', title: 'Two', document: { markdown: '[one](./one.md)' } },
      ]);
      let expected = await spaceLinks(space);
      const db = server.storage.db;
      await repo.deleteScope(db, space);
      expect(await spaceLinks(space)).toEqual(expected);
      await expectSameAsRebuilt(space);

      // A merge into a space without links leaves them to the start-up pass or the first read.
      await repo.deleteScope(db, space);
      await seedContent(server, space, [
        { operation: 'insert_page', title: 'Three', document: { markdown: '[one](./one.md)' } },
      ]);
      expect(await repo.findScope(db, space)).toBeUndefined();
      expected = await spaceLinks(space);
      expect(Object.values(expected)).toContain('ok <- Three,Two'); // one.md, from both
      await expectSameAsRebuilt(space);

      await repo.deleteScope(db, space);
      expect(await buildLinks(db, server.config.publicUrl)).toBeGreaterThanOrEqual(1);
      expect(await repo.findScope(db, space)).toMatchObject({ revision_id: (await findSpace(db, space))!.revision_id });
      expect(await buildLinks(db, server.config.publicUrl)).toBe(0);
      expect(await spaceLinks(space)).toEqual(expected);

      // Statuses computed for another PUBLIC_URL are computed again.
      await repo.updateScope(db, space, { app_base: 'http://old.example' });
      expect(await spaceLinks(space)).toEqual(expected);
      expect((await repo.findScope(db, space))!.app_base).toBe(server.config.publicUrl);

      const copy = await server.request('POST', `/v1/spaces/${space}/duplicate`);
      expect(copy.status).toBe(201);
      expect(await repo.findScope(db, copy.body.id)).toMatchObject({ revision_id: copy.body.revision });
      expect(await spaceLinks(copy.body.id)).toEqual(expected);
      await expectSameAsRebuilt(copy.body.id);
    });
  });

  describe('permissions', () => {
    let space: string;
    let cr: string;
    let page: string;
    let fileId: string;
    let reader: TestUser;
    let guest: TestUser;
    let outsider: TestUser;
    let removed: TestUser;
    const paths = () => [
      `/v1/spaces/${space}/links`,
      `/v1/spaces/${space}/content/page/${page}/links`,
      `/v1/spaces/${space}/content/files/${fileId}/backlinks`,
      `/v1/spaces/${space}/change-requests/${cr}/links`,
      `/v1/spaces/${space}/change-requests/${cr}/content/page/${page}/links`,
      `/v1/spaces/${space}/change-requests/${cr}/content/files/${fileId}/backlinks`,
    ];

    beforeAll(async () => {
      space = (await newSpace(server, server.orgId, { title: 'Secret handbook' })).id;
      const made = await seedContent(server, space, [
        { operation: 'insert_files', files: [{ name: 'secret.png', base64: PNG }] },
        { operation: 'insert_page', title: 'Secret plans', document: { markdown: '![s](secret.png) [x](./y.md)' } },
      ]);
      page = made.changes[0].page.id;
      fileId = made.insertedFiles![0].id;
      cr = (await newChangeRequest(server, space)).id;
      reader = await server.member('read');
      guest = await server.member(null);
      removed = await server.member('edit');
      outsider = await server.signup('outsider');
      const otherOrg = await server.request('POST', '/v1/orgs', {
        token: outsider.token,
        body: { title: 'Elsewhere' },
      });
      expect(otherOrg.status).toBe(201);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${removed.id}`)).status).toBe(205);
    });

    it('lets a reader of the space read them', async () => {
      for (const path of paths()) await get(path, reader.token);
    });

    it("answers 404 to another organization's admin, a guest and a removed member, leaking nothing", async () => {
      for (const user of [outsider, guest, removed]) {
        for (const path of paths()) {
          const res = await server.request('GET', path, { token: user.token });
          expect(res.status, `${path} as ${user.email}`).toBe(404);
          expect(JSON.stringify(res.body)).not.toMatch(/Secret|secret\.png/);
        }
      }
      const anonymous = await server.request('GET', paths()[0]!, { token: null });
      expect(anonymous.status).toBe(401);
    });

    it('answers 404 to a member from whom the space is hidden, as for a space that does not exist', async () => {
      const hidden = await server.request('PATCH', `/v1/spaces/${space}`, { body: { defaultLevel: null } });
      expect(hidden.status).toBe(200);
      for (const path of paths()) {
        const res = await server.request('GET', path, { token: reader.token });
        expect(res.status, path).toBe(404);
        const missing = await server.request('GET', path.replace(space, 'no-such-space'), { token: reader.token });
        expect(res.body).toEqual({ error: { ...missing.body.error } });
      }
      await server.request('PATCH', `/v1/spaces/${space}`, { body: { defaultLevel: 'inherit' } });
    });
  });
});
