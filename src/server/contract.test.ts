import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { GitBookAPI, GitBookAPIError, ImportContentSource, MemberRole } from '@gitbook/api';
import { describeEachDialect, startTestServer, OWNER_TOKEN, type TestServer } from './test/harness.js';
import { startFixtureServer, zipOf, type FixtureServer } from './test/fixtures.js';
import { commitFiles, git as gitIn, startGitServer } from './test/git-server.js';
import path from 'node:path';

/**
 * Calls the server through the official client `@gitbook/api@0.143.2` and validates every answer against the
 * JSON schema of that operation in the package's own `spec/openapi.json`.
 */
const require = createRequire(import.meta.url);

const spec = require('@gitbook/api/spec/openapi.json') as any;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
for (const f of ['emoji', 'int32', 'int64', 'color']) ajv.addFormat(f, true);
const SPEC_ID = 'https://contract.test/openapi.json';
ajv.addSchema({ $id: SPEC_ID, components: toJsonSchema(spec.components) });

const validators = new Map<string, ValidateFunction>();
function responseValidator(operationId: string, status: number): ValidateFunction {
  const key = `${operationId}:${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  for (const [path, item] of Object.entries<Record<string, { operationId?: string; responses?: Record<string, any> }>>(
    spec.paths,
  )) {
    for (const op of Object.values(item)) {
      if (op?.operationId !== operationId) continue;
      const schema = op.responses?.[String(status)]?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`${operationId} (${path}) documents no JSON body for ${status}`);
      const validate = ajv.compile({ $id: `https://contract.test/op/${key}`, ...toJsonSchema(schema) });
      validators.set(key, validate);
      return validate;
    }
  }
  throw new Error(`No operation ${operationId} in the spec`);
}

// OpenAPI 3.0 schemas to JSON Schema: `nullable` becomes a null type, and `#/components/...` references point
// at the registered document.
function toJsonSchema(node: unknown): any {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    // `discriminator` is a hint: each oneOf branch already fixes its own `type`, so oneOf alone decides.
    if (k === 'nullable' || k === 'discriminator') continue;
    out[k] = k === '$ref' && typeof v === 'string' ? `${SPEC_ID}${v}` : toJsonSchema(v);
  }
  if ((node as { nullable?: boolean }).nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * Page listings (revisions, pages) are not validated: the published schema requires every document page to carry
 * its body (`allOf` with Document, whose empty branch forbids other properties), while listings here carry page
 * metadata only, as the hosted API does. The pages must still be there with their ids, titles and paths.
 */
function expectListing(response: { status: number; data: unknown }) {
  expect(response.status).toBe(200);
  const data = response.data as { pages: Array<{ id: string; title: string; type: string }> };
  expect(data.pages.length).toBeGreaterThan(0);
  for (const page of data.pages) expect(page).toMatchObject({ id: expect.any(String), title: expect.any(String) });
}

/** A value checked against one of the published schema's components (`Organization`, `Space`…). */
function expectComponent(name: string, value: unknown) {
  const validate = ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`)!;
  const ok = validate(value);
  expect(ok ? [] : validate.errors, `${name} conforms to the published schema`).toEqual([]);
}

function expectConforms(operationId: string, response: { status: number; data: unknown }) {
  const validate = responseValidator(operationId, response.status);
  const ok = validate(response.data);
  expect(ok ? [] : validate.errors, `${operationId} answer conforms to the published schema`).toEqual([]);
}

describeEachDialect('contract with @gitbook/api@0.143.2', (dialect) => {
  let server: TestServer;
  let api: GitBookAPI;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = new GitBookAPI({ endpoint: server.url, authToken: OWNER_TOKEN });
  });
  afterAll(() => server.close());

  it('serves the user and organizations', async () => {
    const user = await api.user.getAuthenticatedUser();
    expect(user.status).toBe(200);
    expectConforms('getAuthenticatedUser', user);

    const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
    expectConforms('listOrganizationsForAuthenticatedUser', orgs);
    expect(orgs.data.items[0]?.id).toBe(server.orgId);

    const org = await api.orgs.getOrganizationById(server.orgId);
    expectConforms('getOrganizationById', org);
    const patched = await api.orgs.updateOrganizationById(server.orgId, { title: 'Renamed org' });
    expectConforms('updateOrganizationById', patched);
    expect(patched.data.title).toBe('Renamed org');
  });

  it('manages collections and spaces', async () => {
    const collection = await api.orgs.createCollection(server.orgId, { title: 'Guides' });
    expect(collection.status).toBe(201);
    expectConforms('createCollection', collection);

    const nested = await api.orgs.createCollection(server.orgId, { title: 'Nested', parent: collection.data.id });
    expectConforms('createCollection', nested);
    expect(nested.data.parent).toBe(collection.data.id);

    expectConforms('listCollectionsInOrganizationById', await api.orgs.listCollectionsInOrganizationById(server.orgId));
    expectConforms('getCollectionById', await api.collections.getCollectionById(collection.data.id));
    expectConforms(
      'updateCollectionById',
      await api.collections.updateCollectionById(collection.data.id, { description: 'All the guides' }),
    );

    const space = await api.orgs.createSpace(server.orgId, { title: 'Handbook', parent: collection.data.id });
    expect(space.status).toBe(201);
    expectConforms('createSpace', space);

    const other = await api.orgs.createSpace(server.orgId, { title: 'Second', emoji: '📘' });
    expectConforms('listSpacesInOrganizationById', await api.orgs.listSpacesInOrganizationById(server.orgId));
    expectConforms('listSpacesInCollectionById', await api.collections.listSpacesInCollectionById(collection.data.id));
    const fetched = await api.spaces.getSpaceById(space.data.id);
    expectConforms('getSpaceById', fetched);
    // The validator really checks: the same answer without a required field is refused.
    const { permissions: _dropped, ...withoutPermissions } = fetched.data;
    expect(responseValidator('getSpaceById', 200)(withoutPermissions)).toBe(false);
    expectConforms('updateSpaceById', await api.spaces.updateSpaceById(space.data.id, { title: 'The handbook' }));

    const moved = await api.spaces.moveSpace(other.data.id, { parent: collection.data.id });
    expectConforms('moveSpace', moved);
    expect(moved.data.parent).toBe(collection.data.id);
    expectConforms('moveCollection', await api.collections.moveCollection(nested.data.id, { parent: null }));

    const copy = await api.spaces.duplicateSpace(space.data.id);
    expect(copy.status).toBe(201);
    expectConforms('duplicateSpace', copy);

    const deleted = await api.spaces.deleteSpaceById(copy.data.id);
    expect(deleted.status).toBe(205);
    const restored = await api.spaces.restoreSpace(copy.data.id);
    expectConforms('restoreSpace', restored);
    expect(restored.data.deletedAt).toBeUndefined();
  });

  it('searches an organization and looks up e-mail domains', async () => {
    // Pages are searched (see the content test); an organization without any answers an empty list.
    const found = await api.orgs.searchOrganizationContent(server.orgId, { query: 'handbook' });
    expectConforms('searchOrganizationContent', found);
    expect(found.data.items).toEqual([]);
    await api.orgs.updateOrganizationById(server.orgId, { emailDomains: ['example.com'] });
    const byDomain = await api.emailDomains.getOrganizationsForEmailDomain('example.com');
    expectConforms('getOrganizationsForEmailDomain', byDomain);
    expect(byDomain.data.organizations.map((o) => o.id)).toEqual([server.orgId]);
  });

  it('serves content, change requests, their changes, merges and reviews', async () => {
    const space = (await api.orgs.createSpace(server.orgId, { title: 'Contract content' })).data;
    const cr = await api.spaces.createChangeRequest(space.id, { subject: 'Add pages' });
    expect(cr.status).toBe(201);
    expectConforms('createChangeRequest', cr);
    // Editing content is newer than 0.143.2: through the HTTP API directly.
    const edited = await server.request(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.data.id}/content?compat=false`,
      {
        body: {
          changes: [
            { operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nHello.' }, ref: 'intro' },
            { operation: 'insert_page', title: 'Details', into: 'intro', document: { markdown: 'More.' } },
            { operation: 'insert_page', type: 'group', title: 'Reference' },
            { operation: 'insert_page', type: 'link', title: 'Site', href: 'https://example.com' },
            { operation: 'insert_files', files: [{ name: 'a.txt', base64: Buffer.from('a').toString('base64') }] },
          ],
        },
      },
    );
    expect(edited.status).toBe(200);
    // Single-page answers are validated on a page without subpages (see expectListing about nested pages).
    const leafId = edited.body.changes[1].page.id as string;

    expectConforms('getChangeRequestById', await api.spaces.getChangeRequestById(space.id, cr.data.id));
    expectConforms('listChangeRequestsForSpace', await api.spaces.listChangeRequestsForSpace(space.id));
    expectListing(await api.spaces.getRevisionOfChangeRequestById(space.id, cr.data.id));
    expectListing(await api.spaces.listPagesInChangeRequest(space.id, cr.data.id));
    expectConforms(
      'getPageInChangeRequestById',
      await api.spaces.getPageInChangeRequestById(space.id, cr.data.id, leafId, { format: 'markdown' }),
    );
    expectConforms('getChangeRequestChanges', await api.spaces.getChangeRequestChanges(space.id, cr.data.id));
    expectConforms('getChangeRequestPDF', await api.spaces.getChangeRequestPdf(space.id, cr.data.id));
    expectConforms(
      'updateChangeRequestById',
      await api.spaces.updateChangeRequestById(space.id, cr.data.id, { subject: 'Add pages, reviewed' }),
    );

    const reviewer = await server.member('review');
    const asReviewer = new GitBookAPI({ endpoint: server.url, authToken: reviewer.token });
    const review = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.data.id, {
      status: 'approved' as never,
    });
    expect(review.status).toBe(201);
    expectConforms('submitChangeRequestReview', review);
    expectConforms('getReviewsByChangeRequestId', await api.spaces.getReviewsByChangeRequestId(space.id, cr.data.id));
    expectConforms(
      'requestReviewersForChangeRequest',
      await api.spaces.requestReviewersForChangeRequest(space.id, cr.data.id, { users: [reviewer.id] }),
    );
    expectConforms(
      'getRequestedReviewersByChangeRequestId',
      await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.data.id),
    );

    const merged = await api.spaces.mergeChangeRequest(space.id, cr.data.id);
    expectConforms('mergeChangeRequest', merged);
    const inSpace = await api.spaces.searchSpaceContent(space.id, { query: 'hello' });
    expectConforms('searchSpaceContent', inSpace);
    expect(inSpace.data.items.map((p) => p.title)).toEqual(['Intro']);
    const inOrg = await api.orgs.searchOrganizationContent(server.orgId, { query: 'details' });
    expectConforms('searchOrganizationContent', inOrg);
    expect(inOrg.data.items[0]?.pages.map((p) => p.title)).toEqual(['Details']);
    expectListing(await api.spaces.getCurrentRevision(space.id));
    expectListing(await api.spaces.listPages(space.id));
    const page = await api.spaces.getPageById(space.id, leafId, {
      format: 'markdown',
      evaluated: 'deterministic-only',
    });
    expectConforms('getPageById', page);
    expect((page.data as { markdown?: string }).markdown).toContain('More.');
    expectConforms('getPageById', await api.spaces.getPageById(space.id, leafId, { format: 'markdown' }));
    const files = await api.spaces.listFiles(space.id);
    expectConforms('listFiles', files);
    expectConforms('getFileById', await api.spaces.getFileById(space.id, files.data.items[0]!.id));
    expectListing(await api.spaces.getRevisionById(space.id, merged.data.revision));
    expectListing(await api.spaces.listPagesInRevisionById(space.id, merged.data.revision));
    expectConforms(
      'getPageInRevisionById',
      await api.spaces.getPageInRevisionById(space.id, merged.data.revision, leafId, { format: 'markdown' }),
    );
    const again = await api.spaces.createChangeRequest(space.id, {});
    expectConforms('updateChangeRequest', await api.spaces.updateChangeRequest(space.id, again.data.id));

    // A page by its path (GitBook's renderer asks so): in the content, a revision and a change request, the path
    // sent as is or encoded; a group gives its pages no segment.
    const byPath = await api.spaces.getPageByPath(space.id, 'intro/details', { format: 'markdown' });
    expectConforms('getPageByPath', byPath);
    expect(byPath.data.id).toBe(leafId);
    const encoded = await api.spaces.getPageByPath(space.id, encodeURIComponent('intro/details'), {
      format: 'markdown',
    });
    expect(encoded.data.id).toBe(leafId);
    expectConforms(
      'getPageInRevisionByPath',
      await api.spaces.getPageInRevisionByPath(space.id, merged.data.revision, 'intro/details', { format: 'markdown' }),
    );
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${again.data.id}/content?compat=false`, {
      body: {
        changes: [
          {
            operation: 'insert_page',
            title: 'Usage',
            into: edited.body.changes[2].page.id,
            document: { markdown: 'Use it.' },
          },
        ],
      },
    });
    const inGroup = await api.spaces.getPageInChangeRequestByPath(space.id, again.data.id, 'usage', {
      format: 'markdown',
    });
    expectConforms('getPageInChangeRequestByPath', inGroup);
    expect(inGroup.data.title).toBe('Usage');
    // Not in the space's content until merged; an unknown path, a stranger: 404.
    await expect(api.spaces.getPageByPath(space.id, 'usage')).rejects.toMatchObject({ code: 404 });
    await expect(api.spaces.getPageByPath(space.id, 'intro/nothing')).rejects.toMatchObject({ code: 404 });
    const stranger = await server.signup('path-stranger');
    const asStranger = new GitBookAPI({ endpoint: server.url, authToken: stranger.token });
    await expect(asStranger.spaces.getPageByPath(space.id, 'intro/details')).rejects.toMatchObject({ code: 404 });

    // Someone the caller works with (getUserById).
    expectConforms('getUserById', await api.users.getUserById(reviewer.id));
  });

  it('serves comment threads of change requests and spaces', async () => {
    const space = (await api.orgs.createSpace(server.orgId, { title: 'Contract comments' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Discuss' })).data;
    const edited = await server.request(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: { changes: [{ operation: 'insert_page', title: 'Topic', document: { markdown: 'A block.' } }] },
      },
    );
    const pageId = edited.body.changes[0].page.id as string;
    const doc = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`);
    const node = doc.body.document.nodes[0].key as string;

    const posted = await api.spaces.postCommentInChangeRequest(space.id, cr.id, {
      page: pageId,
      node,
      body: { markdown: 'Why?' },
    });
    expect(posted.status).toBe(200);
    expectConforms('postCommentInChangeRequest', posted);
    const id = posted.data.id;
    expectConforms('getCommentInChangeRequest', await api.spaces.getCommentInChangeRequest(space.id, cr.id, id));
    const reply = await api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, id, {
      body: { markdown: 'Because.' },
    });
    expectConforms('postCommentReplyInChangeRequest', reply);
    expectConforms(
      'updateCommentReplyInChangeRequest',
      await api.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, id, reply.data.id, {
        addedReactions: ['🎉'],
      }),
    );
    expectConforms(
      'getCommentReplyInChangeRequest',
      await api.spaces.getCommentReplyInChangeRequest(space.id, cr.id, id, reply.data.id),
    );
    expectConforms(
      'listCommentRepliesInChangeRequest',
      await api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, id),
    );
    const resolved = await api.spaces.updateCommentInChangeRequest(space.id, cr.id, id, {
      resolved: true,
      addedReactions: ['👍'],
    });
    expectConforms('updateCommentInChangeRequest', resolved);
    expect(resolved.data.status).toBe('resolved');
    const listed = await api.spaces.listCommentsInChangeRequest(space.id, cr.id, {
      status: 'resolved' as never,
      authors: [server.owner.id],
    });
    expectConforms('listCommentsInChangeRequest', listed);
    expect(listed.data.items.map((c) => c.id)).toEqual([id]);
    expectConforms('listCommentersInChangeRequest', await api.spaces.listCommentersInChangeRequest(space.id, cr.id));
    expect((await api.spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, id, reply.data.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentInChangeRequest(space.id, cr.id, id)).status).toBe(205);

    const onSpace = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Space-wide' } });
    expectConforms('postCommentInSpace', onSpace);
    expectConforms('listCommentsInSpace', await api.spaces.listCommentsInSpace(space.id));
    expectConforms('getCommentInSpace', await api.spaces.getCommentInSpace(space.id, onSpace.data.id));
    expectConforms(
      'updateCommentInSpace',
      await api.spaces.updateCommentInSpace(space.id, onSpace.data.id, { body: { markdown: 'Edited' } }),
    );
    const spaceReply = await api.spaces.postCommentReplyInSpace(space.id, onSpace.data.id, {
      body: { markdown: 'ok' },
    });
    expectConforms('postCommentReplyInSpace', spaceReply);
    expectConforms('listCommentRepliesInSpace', await api.spaces.listCommentRepliesInSpace(space.id, onSpace.data.id));
    expectConforms('listCommentersInSpace', await api.spaces.listCommentersInSpace(space.id));
  });

  it('manages sites, their structure, share links and adaptive schema', async () => {
    const space = (await api.orgs.createSpace(server.orgId, { title: 'Site content' })).data;
    const other = (await api.orgs.createSpace(server.orgId, { title: 'Second variant' })).data;
    const created = await api.orgs.createSite(server.orgId, { title: 'Contract site', spaces: [space.id] });
    expect(created.status).toBe(201);
    expectConforms('createSite', created);
    const siteId = created.data.id;
    expectConforms('listSites', await api.orgs.listSites(server.orgId, { published: false }));
    expectConforms('getSiteById', await api.orgs.getSiteById(server.orgId, siteId));
    expectConforms(
      'updateSiteById',
      await api.orgs.updateSiteById(server.orgId, siteId, { title: 'Contract docs', proxy: 'example.com/docs' }),
    );
    const published = await api.orgs.publishSite(server.orgId, siteId);
    expectConforms('publishSite', published);
    const searched = await api.orgs.searchSiteContent(server.orgId, siteId, { query: 'anything', mode: 'all' });
    expectConforms('searchSiteContent', searched);
    expectConforms('listSiteSpaces', await api.orgs.listSiteSpaces(server.orgId, siteId));

    const section = await api.orgs.addSectionToSite(server.orgId, siteId, { spaceId: other.id });
    expect(section.status).toBe(201);
    expectConforms('addSectionToSite', section);
    expectConforms('listSiteSections', await api.orgs.listSiteSections(server.orgId, siteId));
    expectConforms(
      'updateSiteSectionById',
      await api.orgs.updateSiteSectionById(server.orgId, siteId, section.data.id, {
        description: 'Second part',
        condition: 'visitor.claims.beta === true',
      }),
    );
    const siteSpace = await api.orgs.addSpaceToSite(server.orgId, siteId, {
      spaceId: space.id,
      sectionId: section.data.id,
    });
    expect(siteSpace.status).toBe(201);
    expectConforms('addSpaceToSite', siteSpace);
    expectConforms(
      'updateSiteSpaceById',
      await api.orgs.updateSiteSpaceById(server.orgId, siteId, siteSpace.data.id, { path: 'variant' }),
    );
    expectConforms(
      'moveSiteSpace',
      await api.orgs.moveSiteSpace(server.orgId, siteId, siteSpace.data.id, {
        position: { before: { type: 'site-space', siteSpace: section.data.siteSpaces[0]!.id } as never },
      }),
    );
    const sections = (await api.orgs.listSiteSections(server.orgId, siteId)).data.items;
    expectConforms(
      'moveSiteSection',
      await api.orgs.moveSiteSection(server.orgId, siteId, section.data.id, {
        position: { before: { type: 'site-section', siteSection: sections[0]!.id } as never },
      }),
    );
    const group = await api.orgs.addSectionGroupToSite(server.orgId, siteId, {
      title: 'Group',
      sections: [section.data.id],
    });
    expect(group.status).toBe(201);
    expectConforms('addSectionGroupToSite', group);
    expectConforms('listSiteSectionGroups', await api.orgs.listSiteSectionGroups(server.orgId, siteId));
    expectConforms(
      'updateSiteSectionGroupById',
      await api.orgs.updateSiteSectionGroupById(server.orgId, siteId, group.data.id, { title: 'Renamed group' }),
    );
    const added = await api.orgs.addSectionToGroup(server.orgId, siteId, group.data.id, { sectionId: sections[0]!.id });
    expect(added.status).toBe(201);
    expectConforms('addSectionToGroup', added);
    expectConforms(
      'moveSiteSectionGroup',
      await api.orgs.moveSiteSectionGroup(server.orgId, siteId, group.data.id, {}),
    );
    expectConforms(
      'sortSiteStructure',
      await api.orgs.sortSiteStructure(server.orgId, siteId, {
        item: { type: 'site-section', id: section.data.id } as never,
        position: {},
      }),
    );
    expectConforms('getPublishedContentSite', await api.orgs.getPublishedContentSite(server.orgId, siteId));
    expect((await api.orgs.removeSectionFromGroup(server.orgId, siteId, group.data.id, section.data.id)).status).toBe(
      205,
    );
    expect((await api.orgs.deleteSiteSectionGroupById(server.orgId, siteId, group.data.id)).status).toBe(205);

    const link = await api.orgs.createSiteShareLink(server.orgId, siteId, { name: 'Partners' });
    expect(link.status).toBe(201);
    expectConforms('createSiteShareLink', link);
    expectConforms('listSiteShareLinks', await api.orgs.listSiteShareLinks(server.orgId, siteId));
    expectConforms(
      'updateSiteShareLinkById',
      await api.orgs.updateSiteShareLinkById(server.orgId, siteId, link.data.id, { active: false }),
    );
    expect((await api.orgs.deleteSiteShareLinkById(server.orgId, siteId, link.data.id)).status).toBe(205);

    const schema = await api.orgs.updateSiteAdaptiveSchema(server.orgId, siteId, {
      jsonSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { beta: { type: 'boolean', description: 'in the beta' } },
        additionalProperties: false,
      } as never,
    });
    expectConforms('updateSiteAdaptiveSchema', schema);
    expectConforms('getSiteAdaptiveSchema', await api.orgs.getSiteAdaptiveSchema(server.orgId, siteId));
    expectConforms(
      'listSiteAdaptiveTemplateConditions',
      await api.orgs.listSiteAdaptiveTemplateConditions(server.orgId, siteId),
    );
    expectConforms('getSitePublishingAuthById', await api.orgs.getSitePublishingAuthById(server.orgId, siteId));
    expectConforms(
      'regenerateSitePublishingAuthById',
      await api.orgs.regenerateSitePublishingAuthById(server.orgId, siteId),
    );
    expectConforms('unpublishSite', await api.orgs.unpublishSite(server.orgId, siteId));
    expect((await api.orgs.deleteSiteSpaceById(server.orgId, siteId, siteSpace.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionById(server.orgId, siteId, section.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteById(server.orgId, siteId)).status).toBe(205);
  });

  it('customizes a site and overrides it per site space', async () => {
    const space = (await api.orgs.createSpace(server.orgId, { title: 'Branded content' })).data;
    const site = (await api.orgs.createSite(server.orgId, { title: 'Branded', spaces: [space.id] })).data;
    const defaults = await api.orgs.getSiteCustomizationById(server.orgId, site.id);
    expectConforms('getSiteCustomizationById', defaults);
    const settings = {
      ...defaults.data,
      title: 'Acme handbook',
      styling: { ...defaults.data.styling, primaryColor: { light: '#0a7d3b', dark: '#5fd38d' }, corners: 'straight' },
      header: {
        ...defaults.data.header,
        logo: { light: 'https://example.com/logo.png', dark: 'https://example.com/logo-dark.png' },
        links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [] }],
      },
      footer: { groups: [], copyright: '© Acme' },
    } as never;
    const put = await api.orgs.updateSiteCustomizationById(server.orgId, site.id, settings);
    expectConforms('updateSiteCustomizationById', put);
    expect(put.data.title).toBe('Acme handbook');
    const siteSpaceId = (await api.orgs.listSiteSpaces(server.orgId, site.id)).data.items[0]!.id;
    const inherited = await api.orgs.getSiteSpaceCustomizationById(server.orgId, site.id, siteSpaceId);
    expectConforms('getSiteSpaceCustomizationById', inherited);
    expect((inherited.data as { hasOverrides?: boolean }).hasOverrides).toBe(false);
    const overridden = await api.orgs.overrideSiteSpaceCustomizationById(server.orgId, site.id, siteSpaceId, {
      title: 'Acme API',
      styling: { corners: 'circular' },
    } as never);
    expectConforms('overrideSiteSpaceCustomizationById', overridden);
    expect(overridden.data).toMatchObject({ title: 'Acme API', hasOverrides: true, styling: { corners: 'circular' } });
    expect(overridden.data.styling.primaryColor).toEqual({ light: '#0a7d3b', dark: '#5fd38d' });
    expectConforms('getPublishedContentSite', await api.orgs.getPublishedContentSite(server.orgId, site.id));
    expect((await api.orgs.deleteSiteSpaceCustomizationById(server.orgId, site.id, siteSpaceId)).status).toBe(205);
    expect((await api.orgs.getSiteSpaceCustomizationById(server.orgId, site.id, siteSpaceId)).data.title).toBe(
      'Acme handbook',
    );
  });

  it('manages invite links', async () => {
    const link = await api.orgs.createOrganizationInvite(server.orgId, { role: MemberRole.Edit });
    expectConforms('createOrganizationInvite', link);
    expectConforms('listOrganizationInviteLinks', await api.orgs.listOrganizationInviteLinks(server.orgId));
  });

  it('manages members, teams and their grants on spaces and collections', async () => {
    const member = await server.member('read');
    expectConforms('listMembersInOrganizationById', await api.orgs.listMembersInOrganizationById(server.orgId));
    expectConforms(
      'listMembersInOrganizationById',
      await api.orgs.listMembersInOrganizationById(server.orgId, {
        sort: 'lastSeenAt',
        role: MemberRole.Read,
        search: 'read',
      }),
    );
    expectConforms('getMemberInOrganizationById', await api.orgs.getMemberInOrganizationById(server.orgId, member.id));
    expectConforms(
      'updateMemberInOrganizationById',
      await api.orgs.updateMemberInOrganizationById(server.orgId, member.id, { role: MemberRole.Edit }),
    );
    expectConforms(
      'setUserAsSSOMemberForOrganization',
      await api.orgs.setUserAsSsoMemberForOrganization(server.orgId, member.id),
    );
    const ping = await api.orgs.updateOrganizationMemberLastSeenAt(server.orgId);
    expectConforms('updateOrganizationMemberLastSeenAt', ping);
    expect((ping.data as { serviceVisitorClaims?: string }).serviceVisitorClaims).toEqual(expect.any(String));

    const team = await api.orgs.createOrganizationTeam(server.orgId, { title: 'Contract team', members: [member.id] });
    expect(team.status).toBe(201);
    expectConforms('createOrganizationTeam', team);
    expectConforms('listTeamsInOrganizationById', await api.orgs.listTeamsInOrganizationById(server.orgId));
    expectConforms('getTeamInOrganizationById', await api.orgs.getTeamInOrganizationById(server.orgId, team.data.id));
    expectConforms(
      'updateTeamInOrganizationById',
      await api.orgs.updateTeamInOrganizationById(server.orgId, team.data.id, { title: 'Renamed team' }),
    );
    const bulk = await api.orgs.updateMembersInOrganizationTeam(server.orgId, team.data.id, {
      memberships: { [member.id]: { role: 'owner' as never } },
    });
    expect(bulk.status).toBe(204);
    const put = await api.orgs.addMemberToOrganizationTeamById(server.orgId, team.data.id, server.owner.id, {
      role: 'member' as never,
    });
    expect(put.status).toBe(204);
    expectConforms(
      'listTeamMembersInOrganizationById',
      await api.orgs.listTeamMembersInOrganizationById(server.orgId, team.data.id),
    );
    expectConforms(
      'listTeamsForOrganizationMember',
      await api.orgs.listTeamsForOrganizationMember(server.orgId, member.id, { title: 'renamed' }),
    );

    const space = (await api.orgs.createSpace(server.orgId, { title: 'Granted space' })).data;
    const collection = (await api.orgs.createCollection(server.orgId, { title: 'Granted collection' })).data;
    expect((await api.spaces.inviteToSpace(space.id, { role: MemberRole.Edit, teams: [team.data.id] })).status).toBe(
      204,
    );
    expect((await api.spaces.inviteToSpace(space.id, { role: MemberRole.Review, users: [member.id] })).status).toBe(
      204,
    );
    expect(
      (await api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, teams: [team.data.id] }))
        .status,
    ).toBe(204);
    expectConforms('listTeamPermissionsInSpace', await api.spaces.listTeamPermissionsInSpace(space.id));
    expectConforms('listUserPermissionsInSpace', await api.spaces.listUserPermissionsInSpace(space.id));
    expectConforms(
      'listTeamPermissionsInCollection',
      await api.collections.listTeamPermissionsInCollection(collection.id),
    );
    expectConforms(
      'listUserPermissionsInCollection',
      await api.collections.listUserPermissionsInCollection(collection.id),
    );
    expectConforms(
      'listSpacesForOrganizationMember',
      await api.orgs.listSpacesForOrganizationMember(server.orgId, member.id),
    );
  });

  it("manages SAML providers and lists them for the organization's members", async () => {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'idp.contract.test' }], { keySize: 2048 });
    const created = await api.orgs.createOrganizationSamlProvider(server.orgId, {
      label: 'Contract IdP',
      entityID: 'https://idp.contract.test',
      certificate: pems.cert,
      ssoURL: 'https://idp.contract.test/sso',
      defaultRole: MemberRole.Read,
    });
    expect(created.status).toBe(201);
    expectConforms('createOrganizationSAMLProvider', created);
    expectConforms(
      'listSAMLProvidersInOrganizationById',
      await api.orgs.listSamlProvidersInOrganizationById(server.orgId),
    );
    expectConforms(
      'getOrganizationSAMLProviderById',
      await api.orgs.getOrganizationSamlProviderById(server.orgId, created.data.id),
    );
    expectConforms(
      'updateOrganizationSAMLProvider',
      await api.orgs.updateOrganizationSamlProvider(server.orgId, created.data.id, { label: 'Renamed IdP' }),
    );
    // The providers' logins need a token like the rest of the contract (a member's).
    expectConforms(
      'listSSOProviderLoginsInOrganization',
      await api.orgs.listSsoProviderLoginsInOrganization(server.orgId),
    );
    // Translation settings follow api.md (`translation-settings`: title, languages), which replaces the
    // translation runs of 0.143.2 (`translation`: source, language, instructions): no schema of that version
    // describes them, so they are covered by routes/translations.test.ts only.
  });

  it('reports errors as GitBookAPIError with the HTTP status and message', async () => {
    const error = await api.spaces.getSpaceById('no-such-space').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(404);
    expect((error as GitBookAPIError).message).toContain('Space not found');

    const anonymous = new GitBookAPI({ endpoint: server.url });
    const unauthorized = await anonymous.orgs.listOrganizationsForAuthenticatedUser().catch((e: unknown) => e);
    expect((unauthorized as GitBookAPIError).code).toBe(401);
  });
});

describeEachDialect('contract with @gitbook/api@0.143.2: imports', (dialect) => {
  let server: TestServer;
  let fixtures: FixtureServer;
  let api: GitBookAPI;
  beforeAll(async () => {
    // The fixtures are served on loopback, which the operator setting allows here.
    server = await startTestServer(dialect, { allowPrivateFetch: true });
    fixtures = await startFixtureServer();
    api = new GitBookAPI({ endpoint: server.url, authToken: OWNER_TOKEN });
  });
  afterAll(async () => {
    await server.close();
    await fixtures.close();
  });

  it('imports content into a space and into a change request', async () => {
    fixtures.set('/guide.zip', {
      type: 'application/zip',
      body: zipOf({ 'README.md': '# Guide\n\nSee [setup](setup.md).', 'setup.md': '# Setup' }),
    });
    fixtures.set('/page.md', { type: 'text/markdown', body: '# Page\n\nText.' });
    const space = await api.orgs.createSpace(server.orgId, { title: 'Imported' });
    const intoSpace = await api.spaces.importContent(space.data.id, {
      url: `${fixtures.url}/guide.zip`,
      source: ImportContentSource.Zip,
    });
    expect(intoSpace.status).toBe(201);
    expectConforms('importContent', intoSpace);
    expect(intoSpace.data).toMatchObject({ importedResources: 2, totalResources: 2 });

    const cr = await api.spaces.createChangeRequest(space.data.id, { subject: 'More' });
    const intoCr = await api.spaces.importContentInChangeRequest(space.data.id, cr.data.id, {
      url: `${fixtures.url}/page.md`,
      source: ImportContentSource.Markdown,
    });
    expect(intoCr.status).toBe(201);
    expectConforms('importContentInChangeRequest', intoCr);
    expect(intoCr.data.revision).toBe((await api.spaces.getChangeRequestById(space.data.id, cr.data.id)).data.revision);
  });

  it('imports from and exports to a Git repository (Git Sync), and tells its state and commits', async () => {
    const git = await startGitServer({ token: 'gh-token' });
    try {
      const url = await git.createRepo('docs');
      await commitFiles(path.join(git.root, 'docs.git'), { 'README.md': '# Home\n\nHello.\n' }, { message: 'Docs' });
      const space = await api.orgs.createSpace(server.orgId, { title: 'Git' });
      const missing = await api.spaces.getSpaceGitInfo(space.data.id).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(GitBookAPIError);
      expect((missing as GitBookAPIError).code).toBe(404);
      // As GitBook's integration calls it: the token in the URL.
      const withToken = new URL(url);
      withToken.username = 'x-access-token';
      withToken.password = 'gh-token';
      const started = await api.spaces.importGitRepository(space.data.id, {
        url: withToken.toString(),
        ref: 'refs/heads/main',
        timestamp: new Date().toISOString(),
      });
      expect(started.status).toBe(204);
      await server.drainJobs();
      const info = await api.spaces.getSpaceGitInfo(space.data.id);
      expectConforms('getSpaceGitInfo', info);
      expect(info.data.repoName).toBe('docs');
      const synced = await api.spaces.getSpaceById(space.data.id);
      expectConforms('getSpaceById', synced);
      expect(synced.data.gitSync).toEqual(info.data);
      const content = await api.spaces.getCurrentRevision(space.data.id);
      expectComponent('GitSyncCommit', content.data.git);
      expect(content.data.git).toMatchObject({ message: 'Docs', createdByGitBook: false, ref: 'refs/heads/main' });
      // api.md's name of the flag too.
      expect(content.data.git).toMatchObject({ createdByService: false });
      const bare = await api.spaces.getCurrentRevision(space.data.id, { metadata: false });
      expect(bare.data.git).toBeUndefined();
      // Pages say which file they are (GitSyncBlob).
      const pageGit = (content.data.pages[0] as { git?: unknown }).git;
      expectComponent('GitSyncBlob', pageGit);
      expect(pageGit).toMatchObject({ path: 'README.md', oid: expect.stringMatching(/^[0-9a-f]{40}$/) });
      const pages = await api.spaces.listPages(space.data.id);
      expect((pages.data.pages[0] as { git?: unknown }).git).toEqual(pageGit);
      const page = await api.spaces.getPageById(space.data.id, pages.data.pages[0]!.id);
      expectConforms('getPageById', page);
      expect((page.data as { git?: unknown }).git).toEqual(pageGit);

      const exported = await api.spaces.exportToGitRepository(space.data.id, {
        url,
        ref: 'refs/heads/published',
        commitMessage: 'Publish',
      });
      expect(exported.status).toBe(204);
      await server.drainJobs();
      expect((await gitIn(['rev-parse', 'published'], { cwd: path.join(git.root, 'docs.git') })).trim()).toMatch(
        /^[0-9a-f]{40}$/,
      );
    } finally {
      await git.close();
    }
  });
});

describeEachDialect('contract with @gitbook/api@0.143.2: OpenAPI specifications', (dialect) => {
  let server: TestServer;
  let api: GitBookAPI;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = new GitBookAPI({ endpoint: server.url, authToken: OWNER_TOKEN });
  });
  afterAll(() => server.close());

  async function processedSpec(slug: string) {
    await server.drainJobs();
    for (let i = 0; i < 200; i++) {
      const spec = await api.orgs.getOpenApiSpecBySlug(server.orgId, slug);
      if (spec.data.processingState === 'complete') return spec;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${slug} was not processed`);
  }

  it('creates, processes, versions, lists and deletes specifications', async () => {
    const text =
      'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get:\n      responses:\n        "200": {description: OK}\n';
    const created = await api.orgs.createOpenApiSpec(server.orgId, { slug: 'pets', source: { text } });
    expect(created.status).toBe(201);
    expectConforms('createOpenAPISpec', created);
    const spec = await processedSpec('pets');
    expectConforms('getOpenAPISpecBySlug', spec);
    expect(spec.data.lastVersion).toEqual(expect.any(String));

    const updated = await api.orgs.createOrUpdateOpenApiSpecBySlug(server.orgId, 'pets', {
      source: { text: text.replace('Pets', 'Pets v2') },
    });
    expect(updated.status).toBe(200);
    expectConforms('createOrUpdateOpenAPISpecBySlug', updated);
    const createdByPut = await api.orgs.createOrUpdateOpenApiSpecBySlug(server.orgId, 'other', { source: { text } });
    expect(createdByPut.status).toBe(201);
    expectConforms('createOrUpdateOpenAPISpecBySlug', createdByPut);
    await processedSpec('pets');
    expectConforms('listOpenAPISpecs', await api.orgs.listOpenApiSpecs(server.orgId));
    const patched = await api.orgs.updateOpenApiSpecBySlug(server.orgId, 'pets', { visibility: 'public' as never });
    expectConforms('updateOpenAPISpecBySlug', patched);

    const versions = await api.orgs.listOpenApiSpecVersions(server.orgId, 'pets');
    expectConforms('listOpenAPISpecVersions', versions);
    expect(versions.data.items).toHaveLength(2);
    const latest = await api.orgs.getLatestOpenApiSpecVersion(server.orgId, 'pets');
    expectConforms('getLatestOpenAPISpecVersion', latest);
    expectConforms(
      'getOpenAPISpecVersionById',
      await api.orgs.getOpenApiSpecVersionById(server.orgId, 'pets', versions.data.items[1]!.id),
    );
    const content = await api.orgs.getLatestOpenApiSpecVersionContent(server.orgId, 'pets');
    expectConforms('getLatestOpenAPISpecVersionContent', content);
    expect(JSON.stringify(content.data.filesystem)).toContain('Pets v2');
    expectConforms(
      'getOpenAPISpecVersionContentById',
      await api.orgs.getOpenApiSpecVersionContentById(server.orgId, 'pets', versions.data.items[1]!.id),
    );

    expect((await api.orgs.deleteOpenApiSpecBySlug(server.orgId, 'other')).status).toBe(205);
    const gone = await api.orgs.getOpenApiSpecBySlug(server.orgId, 'other').catch((e: unknown) => e);
    expect((gone as GitBookAPIError).code).toBe(404);
  });
});

describeEachDialect('contract with @gitbook/api@0.143.2: integrations', (dialect) => {
  let server: TestServer;
  let api: GitBookAPI;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = new GitBookAPI({ endpoint: server.url, authToken: OWNER_TOKEN });
  });
  afterAll(() => server.close());

  it('publishes, lists, installs on an organization and a space, logs events, uninstalls and unpublishes', async () => {
    const published = await api.integrations.publishIntegration('contract-demo', {
      title: 'Contract demo',
      description: 'Checks the shapes',
      scopes: ['space:content:read'] as never,
      script: 'export default { fetch() { return new Response("OK"); } };',
      organization: server.orgId,
      visibility: 'public' as never,
      externalLinks: [{ url: 'https://example.com', label: 'Home' }],
      configurations: { account: { properties: { key: { type: 'string' } }, required: [] } } as never,
    });
    expectConforms('publishIntegration', published);
    expectConforms('getIntegrationByName', await api.integrations.getIntegrationByName('contract-demo'));
    expectConforms('listIntegrations', await api.integrations.listIntegrations());
    expectConforms('listOrganizationIntegrations', await api.orgs.listOrganizationIntegrations(server.orgId));

    const installed = await api.integrations.installIntegration('contract-demo', { organization: server.orgId });
    expect(installed.status).toBe(201);
    expectConforms('installIntegration', installed);
    expectConforms(
      'getIntegrationInstallationById',
      await api.integrations.getIntegrationInstallationById('contract-demo', installed.data.id),
    );
    expectConforms(
      'updateIntegrationInstallation',
      await api.integrations.updateIntegrationInstallation('contract-demo', installed.data.id, {
        configuration: { key: 'value' },
      }),
    );
    const space = await api.orgs.createSpace(server.orgId, { title: 'With an integration' });
    const onSpace = await api.integrations.installIntegrationOnSpace('contract-demo', installed.data.id, {
      space: space.data.id,
    });
    expect(onSpace.status).toBe(201);
    expectConforms('installIntegrationOnSpace', onSpace);
    expectConforms(
      'getIntegrationSpaceInstallation',
      await api.integrations.getIntegrationSpaceInstallation('contract-demo', installed.data.id, space.data.id),
    );
    expectConforms(
      'listIntegrationInstallationSpaces',
      await api.integrations.listIntegrationInstallationSpaces('contract-demo', installed.data.id),
    );
    // Events are listed once delivered to the integration's script.
    await server.drainJobs();
    const events = await api.integrations.listIntegrationEvents('contract-demo');
    expectConforms('listIntegrationEvents', events);
    expect(events.data.items.length).toBeGreaterThan(0);
    expectConforms(
      'getIntegrationEvent',
      await api.integrations.getIntegrationEvent('contract-demo', events.data.items[0]!.id),
    );
    expect((await api.integrations.uninstallIntegration('contract-demo', installed.data.id)).status).toBe(205);
    expect((await api.integrations.unpublishIntegration('contract-demo')).status).toBe(204);
  });
});

describeEachDialect('contract with @gitbook/api@0.143.2: what a renderer of published sites reads', (dialect) => {
  let server: TestServer;
  let api: GitBookAPI;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = new GitBookAPI({ endpoint: server.url, authToken: OWNER_TOKEN });
  });
  afterAll(() => server.close());

  it('resolves a URL, then reads the site, its content, a spec, search and redirects with the site token', async () => {
    const { seedContent } = await import('./test/factories.js');
    const text =
      'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get:\n      responses:\n        "200": {description: OK}\n';
    await api.orgs.createOpenApiSpec(server.orgId, { slug: 'pets', source: { text } });
    await server.drainJobs();
    const guides = (await api.orgs.createSpace(server.orgId, { title: 'Guides' })).data;
    const reference = (await api.orgs.createSpace(server.orgId, { title: 'Reference' })).data;
    const seeded = await seedContent(server, guides.id, [
      { operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nSee [pets](pets.md#list).' } },
      {
        operation: 'insert_page',
        title: 'Pets',
        document: { markdown: '## List\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}' },
      },
    ]);
    await seedContent(server, reference.id, [{ operation: 'insert_page', title: 'API', document: { markdown: 'x' } }]);
    const site = (await api.orgs.createSite(server.orgId, { title: 'Docs', visibility: 'public' } as never)).data;
    for (const space of [guides, reference]) {
      await api.orgs.addSectionToSite(server.orgId, site.id, { spaceId: space.id });
    }
    await api.orgs.publishSite(server.orgId, site.id);

    const anonymous = new GitBookAPI({ endpoint: server.url });
    const lookup = await anonymous.urls.resolvePublishedContentByUrl({
      url: `https://docs.test/sites/${site.id}/guides/guides/pets`,
      redirectOnError: false,
      visitor: {},
    });
    expectConforms('resolvePublishedContentByUrl', lookup);
    if (!('apiToken' in lookup.data)) throw new Error('a redirect');
    const found = lookup.data;
    expect(found).toMatchObject({ space: guides.id, pathname: 'pets', complete: true });

    const renderer = new GitBookAPI({ endpoint: server.url, authToken: found.apiToken });
    expectConforms(
      'getPublishedContentSite',
      await renderer.orgs.getPublishedContentSite(found.organization, found.site, {}),
    );
    expectConforms('getSpaceById', await renderer.spaces.getSpaceById(found.space));
    const revision = await renderer.spaces.getRevisionById(found.space, found.revision!, { metadata: true });
    expectListing(revision);
    const pets = revision.data.pages.find((p) => p.title === 'Pets')! as { id: string; documentId?: string };
    expect(pets.documentId).toEqual(expect.any(String));
    expectConforms(
      'getPageDocumentInRevisionById',
      await renderer.spaces.getPageDocumentInRevisionById(found.space, found.revision!, pets.id, {
        evaluated: 'deterministic-only' as never,
      }),
    );
    expectConforms('getDocumentById', await renderer.spaces.getDocumentById(found.space, pets.documentId!));
    expectConforms(
      'getPageInRevisionByPath',
      await renderer.spaces.getPageInRevisionByPath(found.space, found.revision!, 'pets', {}),
    );
    expectConforms(
      'getLatestOpenAPISpecVersionContent',
      await renderer.orgs.getLatestOpenApiSpecVersionContent(found.organization, 'pets'),
    );
    expectConforms(
      'searchSiteContent',
      await renderer.orgs.searchSiteContent(found.organization, found.site, { query: 'pets', mode: 'all' }),
    );
    expectConforms('getUserById', await renderer.users.getUserById((await api.user.getAuthenticatedUser()).data.id));

    // Site redirects, written by the owner, read by the renderer.
    const created = await api.orgs.createSiteRedirect(server.orgId, site.id, {
      source: '/old-pets',
      destination: { kind: 'site-page', siteSpaceId: found.siteSpace, pageId: pets.id },
    });
    expectConforms('createSiteRedirect', created);
    expectConforms('listSiteRedirects', await api.orgs.listSiteRedirects(server.orgId, site.id));
    expectConforms(
      'updateSiteRedirectById',
      await api.orgs.updateSiteRedirectById(server.orgId, site.id, created.data.id, { source: '/old/pets' }),
    );
    const followed = await renderer.orgs.getSiteRedirectBySource(found.organization, found.site, {
      source: '/old/pets',
    });
    expectConforms('getSiteRedirectBySource', followed);
    expect(followed.data.target).toBe(`http://docs.test/sites/${site.id}/guides/guides/pets`);

    // Links name their organization and space as the contract's objects (ContentLocation*). Their pages are not
    // validated, for the reason listings are not (expectListing): a conforming page would carry its whole body.
    const links = await api.spaces.listSpaceLinks(guides.id);
    const backlinks = await api.spaces.listSpacePageBacklinks(guides.id, pets.id);
    const locations = [
      ...links.data.items.flatMap((l) => [l.targetReference, ...l.locationReferences]),
      ...backlinks.data.items,
    ] as Array<{ kind: string; organization?: unknown; space?: unknown; page?: { id: string } }>;
    const intro = revision.data.pages.find((p) => p.title === 'Intro')!;
    expect(intro.id).toEqual(seeded.pageIds[0]);
    // Intro links to an anchor of Pets: it is Pets' backlink.
    expect(backlinks.data.items.map((l) => (l as { page?: { id: string } }).page?.id)).toEqual([intro.id]);
    expect(backlinks.data.count).toBe(1);
    expect(locations.filter((l) => l.kind === 'page').map((l) => l.page?.id)).toEqual(
      expect.arrayContaining([intro.id, pets.id]),
    );
    for (const location of locations.filter((l) => l.kind === 'page' || l.kind === 'file')) {
      expectComponent('Organization', location.organization);
      expectComponent('Space', location.space);
    }
  });
});
