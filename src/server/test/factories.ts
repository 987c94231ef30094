import type { ChangeRequest } from '../../shared/contract/change-requests.js';
import type { Collection } from '../../shared/contract/collections.js';
import type { InviteLink, Organization } from '../../shared/contract/organizations.js';
import type { Site } from '../../shared/contract/sites.js';
import type { Space } from '../../shared/contract/spaces.js';
import type { Team } from '../../shared/contract/teams.js';
import type { ApiResponse, TestServer, TestUser } from './harness.js';

/**
 * Factories: the data a test starts from, made through the API of a test server as a user would make it, never
 * typed into tables. Each asserts the status it expects and throws an error naming itself otherwise, and returns
 * what the API answered. The owner makes everything unless `token` says who.
 */

/** Who makes it: the owner's token unless given. */
export interface As {
  token?: string;
}

/** Fields of the request body (as the contract names them), and who sends it. */
export type Fields = As & Record<string, unknown>;

async function expectStatus<T>(
  server: TestServer,
  factory: string,
  method: string,
  path: string,
  status: number,
  opts: { token?: string; body?: unknown } = {},
): Promise<T> {
  const res: ApiResponse<T> = await server.request<T>(method, path, opts);
  if (res.status !== status) {
    throw new Error(
      `${factory}: ${method} ${path} answered ${res.status}, expected ${status}: ${JSON.stringify(res.body)}`,
    );
  }
  return res.body;
}

function split({ token, ...body }: Fields): [As, Record<string, unknown>] {
  return [{ token }, body];
}

/** A new organization (`POST /v1/orgs`), its creator its admin. */
export function newOrg(server: TestServer, title = 'Test org', { token }: As = {}): Promise<Organization> {
  return expectStatus(server, 'newOrg', 'POST', '/v1/orgs', 201, { token, body: { title } });
}

/** A new space (`POST /v1/orgs/:org/spaces`) titled "Space" unless `fields` say otherwise. */
export function newSpace(server: TestServer, orgId = server.orgId, fields: Fields = {}): Promise<Space> {
  const [as, body] = split(fields);
  return expectStatus(server, 'newSpace', 'POST', `/v1/orgs/${orgId}/spaces`, 201, {
    ...as,
    body: { title: 'Space', ...body },
  });
}

/** A new collection (`POST /v1/orgs/:org/collections`) titled "Collection" unless `fields` say otherwise. */
export function newCollection(server: TestServer, orgId = server.orgId, fields: Fields = {}): Promise<Collection> {
  const [as, body] = split(fields);
  return expectStatus(server, 'newCollection', 'POST', `/v1/orgs/${orgId}/collections`, 201, {
    ...as,
    body: { title: 'Collection', ...body },
  });
}

/** A new open change request of a space (`POST /v1/spaces/:space/change-requests`), without a subject unless given. */
export function newChangeRequest(
  server: TestServer,
  spaceId: string,
  { token, subject }: As & { subject?: string } = {},
): Promise<ChangeRequest> {
  return expectStatus(server, 'newChangeRequest', 'POST', `/v1/spaces/${spaceId}/change-requests`, 201, {
    token,
    body: subject === undefined ? {} : { subject },
  });
}

/**
 * What an edit of a change request's content made (`contentChangeResultSchema`): `changes` holds one result per
 * change of a page, in order (files are in `insertedFiles`), typed loosely as tests index into them
 * (`changes[0].page.id`).
 */
export interface ContentEdit {
  changeRequest: ChangeRequest;
  changes: any[];
  insertedFiles?: any[];
}

/** Edits the content of a change request (`POST …/change-requests/:cr/content`, `insert_page`, `update_page` …). */
export function editContent(
  server: TestServer,
  spaceId: string,
  changeRequestId: string,
  changes: unknown[],
  { token }: As = {},
): Promise<ContentEdit> {
  return expectStatus(
    server,
    'editContent',
    'POST',
    `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content?compat=false`,
    200,
    { token, body: { changes } },
  );
}

/** Merges a change request into its space (`POST …/change-requests/:cr/merge`). */
export function mergeChangeRequest(
  server: TestServer,
  spaceId: string,
  changeRequestId: string,
  { token }: As = {},
): Promise<{ revision: string; result: 'merge' | 'update' | 'conflicts' }> {
  return expectStatus(
    server,
    'mergeChangeRequest',
    'POST',
    `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`,
    200,
    { token },
  );
}

/**
 * Changes the content of a space as the console does: a new change request (subject "Seed" unless given) gets
 * `changes`, then is merged. Returns what the edit made, the merge revision, and the id of the page of each
 * result.
 */
export async function seedContent(
  server: TestServer,
  spaceId: string,
  changes: unknown[],
  { token, subject = 'Seed' }: As & { subject?: string } = {},
): Promise<ContentEdit & { pageIds: string[]; revision: string }> {
  const cr = await newChangeRequest(server, spaceId, { token, subject });
  const made = await editContent(server, spaceId, cr.id, changes, { token });
  const merged = await mergeChangeRequest(server, spaceId, cr.id, { token });
  const pageIds: string[] = made.changes.map((c) => (typeof c.page === 'string' ? c.page : (c.page?.id ?? '')));
  return { ...made, pageIds, revision: merged.revision };
}

/** A page of `markdown` in a space (`insert_page` through a merged change request); returns its id. */
export async function seedPage(
  server: TestServer,
  spaceId: string,
  title: string,
  markdown: string,
  as: As = {},
): Promise<string> {
  const seeded = await seedContent(server, spaceId, [{ operation: 'insert_page', title, document: { markdown } }], as);
  return seeded.pageIds[0]!;
}

/** A new site (`POST /v1/orgs/:org/sites`) titled "Docs" unless `fields` say otherwise. */
export function newSite(server: TestServer, orgId = server.orgId, fields: Fields = {}): Promise<Site> {
  const [as, body] = split(fields);
  return expectStatus(server, 'newSite', 'POST', `/v1/orgs/${orgId}/sites`, 201, {
    ...as,
    body: { title: 'Docs', ...body },
  });
}

/** Publishes a site (`POST /v1/orgs/:org/sites/:site/publish`), and checks it says so. */
export async function publishSite(
  server: TestServer,
  orgId: string,
  siteId: string,
  { token }: As = {},
): Promise<Site & { urls: { published: string } }> {
  const path = `/v1/orgs/${orgId}/sites/${siteId}/publish`;
  const site = await expectStatus<Site>(server, 'publishSite', 'POST', path, 200, { token });
  if (!site.published || !site.urls.published) {
    throw new Error(`publishSite: POST ${path} answered a site not published: ${JSON.stringify(site)}`);
  }
  return { ...site, urls: { ...site.urls, published: site.urls.published } };
}

/** A new team (`PUT /v1/orgs/:org/teams`) titled "Team" unless `fields` say otherwise. */
export function newTeam(server: TestServer, orgId = server.orgId, fields: Fields = {}): Promise<Team> {
  const [as, body] = split(fields);
  return expectStatus(server, 'newTeam', 'PUT', `/v1/orgs/${orgId}/teams`, 201, {
    ...as,
    body: { title: 'Team', ...body },
  });
}

/** A new invite link to an organization (`POST /v1/orgs/:org/link-invites`) giving `role` (`null`: guest). */
export function newInviteLink(
  server: TestServer,
  orgId: string,
  role: string | null = 'read',
  { token }: As = {},
): Promise<InviteLink> {
  return expectStatus(server, 'newInviteLink', 'POST', `/v1/orgs/${orgId}/link-invites`, 201, {
    token,
    body: { role },
  });
}

/**
 * `user` joins an organization with `role` through a new invite link (made by the owner, or by `token`'s user):
 * for an account that exists already; `server.member` signs up a new one.
 */
export async function joinOrg<U extends TestUser>(
  server: TestServer,
  orgId: string,
  user: U,
  role: string | null,
  as: As = {},
): Promise<U> {
  const link = await newInviteLink(server, orgId, role, as);
  await expectStatus(server, 'joinOrg', 'POST', `/v1/orgs/${orgId}/invites/${link.id}`, 200, { token: user.token });
  return user;
}
