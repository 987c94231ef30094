/**
 * Query keys shared by features: a feature that changes data another feature shows (deleting a space fills
 * the trash; restoring it refills the tree) invalidates these keys instead of importing the other feature.
 */
export const queryKeys = {
  user: ['user'] as const,
  organizations: {
    all: ['organizations'] as const,
    list: () => ['organizations', 'list'] as const,
    detail: (organizationId: string) => ['organizations', 'detail', organizationId] as const,
    members: (organizationId: string) => ['organizations', 'members', organizationId] as const,
    presence: (organizationId: string) => ['organizations', 'presence', organizationId] as const,
  },
  /** The people of an organization: members (searched, filtered, sorted), one member's spaces and teams. */
  members: {
    all: (organizationId: string) => ['members', organizationId] as const,
    list: (organizationId: string, query: object) => ['members', organizationId, 'list', query] as const,
    detail: (organizationId: string, userId: string) => ['members', organizationId, 'detail', userId] as const,
    spaces: (organizationId: string, userId: string) =>
      ['members', organizationId, 'detail', userId, 'spaces'] as const,
    teams: (organizationId: string, userId: string) => ['members', organizationId, 'detail', userId, 'teams'] as const,
  },
  inviteLinks: {
    list: (organizationId: string) => ['invite-links', organizationId] as const,
    /** What one link offers (organization and role), as its holder sees it on the join page. */
    preview: (organizationId: string, inviteId: string) =>
      ['invite-links', organizationId, 'preview', inviteId] as const,
  },
  /** Invitations by e-mail: the signed-in person's own, and an organization's pending ones (its admins see them). */
  invitations: {
    mine: ['invitations', 'mine'] as const,
    organization: (organizationId: string) => ['invitations', 'organization', organizationId] as const,
  },
  emailDomains: {
    list: (organizationId: string) => ['email-domains', organizationId] as const,
  },
  /** The signed-in person's notifications: the unread count, pages of the inbox, their settings. */
  notifications: {
    all: ['notifications'] as const,
    unread: ['notifications', 'unread'] as const,
    list: (filter: object) => ['notifications', 'list', filter] as const,
    settings: ['notifications', 'settings'] as const,
  },
  /** Outgoing e-mail (the instance owner's): the relay's status, pages of messages by filter, one message. */
  outbox: {
    all: ['outbox'] as const,
    status: ['outbox', 'status'] as const,
    list: (filter: object) => ['outbox', 'list', filter] as const,
    message: (id: string) => ['outbox', 'message', id] as const,
  },
  /** The signed-in person's account settings. */
  account: {
    ssoLinks: ['account', 'sso-links'] as const,
    tokens: ['account', 'tokens'] as const,
    sessions: ['account', 'sessions'] as const,
  },
  teams: {
    all: (organizationId: string) => ['teams', organizationId] as const,
    list: (organizationId: string, title?: string) => ['teams', organizationId, 'list', title ?? ''] as const,
    detail: (organizationId: string, teamId: string) => ['teams', organizationId, 'detail', teamId] as const,
    members: (organizationId: string, teamId: string) =>
      ['teams', organizationId, 'detail', teamId, 'members'] as const,
  },
  /** Who has access to a space or a collection (`kind` is `spaces` or `collections`), and why. */
  access: {
    item: (kind: string, id: string) => ['access', kind, id] as const,
    teams: (kind: string, id: string) => ['access', kind, id, 'teams'] as const,
    users: (kind: string, id: string) => ['access', kind, id, 'users'] as const,
    explain: (kind: string, id: string, userId: string) => ['access', kind, id, 'explain', userId] as const,
  },
  sso: {
    providers: (organizationId: string) => ['sso', organizationId, 'providers'] as const,
    /** The organization's sign-in buttons `{id, label, startURL}`, which any member may list. */
    logins: (organizationId: string) => ['sso', organizationId, 'logins'] as const,
  },
  translations: {
    list: (organizationId: string) => ['translations', organizationId] as const,
  },
  integrations: {
    all: ['integrations'] as const,
    directory: (filters: object) => ['integrations', 'directory', filters] as const,
    detail: (name: string) => ['integrations', 'detail', name] as const,
    /** Its recent events (for admins of the owner), and one with its trace. */
    events: (name: string) => ['integrations', 'events', name] as const,
    event: (name: string, id: string) => ['integrations', 'events', name, id] as const,
    installed: (organizationId: string) => ['integrations', 'installed', organizationId] as const,
    installation: (name: string, id: string) => ['integrations', 'installation', name, id] as const,
    targets: (name: string, id: string, kind: string) => ['integrations', 'installation', name, id, kind] as const,
  },
  /** Hosted OpenAPI specifications; versions never change once made. */
  openapi: {
    all: (organizationId: string) => ['openapi', organizationId] as const,
    list: (organizationId: string) => ['openapi', organizationId, 'list'] as const,
    detail: (organizationId: string, slug: string) => ['openapi', organizationId, 'spec', slug] as const,
    versions: (organizationId: string, slug: string) => ['openapi', organizationId, 'spec', slug, 'versions'] as const,
    reference: (organizationId: string, slug: string, versionId: string) =>
      ['openapi', organizationId, 'spec', slug, 'reference', versionId] as const,
    comparison: (organizationId: string, slug: string, from: string, to: string) =>
      ['openapi', organizationId, 'spec', slug, 'compare', from, to] as const,
    operation: (organizationId: string, slug: string, method: string, path: string) =>
      ['openapi', organizationId, 'spec', slug, 'operation', method, path] as const,
  },
  collections: {
    all: ['collections'] as const,
    list: (organizationId: string) => ['collections', 'list', organizationId] as const,
    detail: (collectionId: string) => ['collections', 'detail', collectionId] as const,
  },
  spaces: {
    all: ['spaces'] as const,
    list: (organizationId: string) => ['spaces', 'list', organizationId] as const,
    trash: (organizationId: string) => ['spaces', 'trash', organizationId] as const,
    detail: (spaceId: string) => ['spaces', 'detail', spaceId] as const,
  },
  /** The space's current content (its live revision): a merge changes all of it. */
  content: {
    space: (spaceId: string) => ['content', spaceId] as const,
    pages: (spaceId: string) => ['content', spaceId, 'pages'] as const,
    page: (spaceId: string, pageId: string) => ['content', spaceId, 'page', pageId] as const,
  },
  /** A past revision of a space: immutable. */
  revisions: {
    pages: (spaceId: string, revisionId: string) => ['revisions', spaceId, revisionId, 'pages'] as const,
    page: (spaceId: string, revisionId: string, pageId: string) =>
      ['revisions', spaceId, revisionId, 'page', pageId] as const,
  },
  /** Change requests of a space; `number` is the change request's number in the space. */
  changeRequests: {
    space: (spaceId: string) => ['change-requests', spaceId] as const,
    lists: (spaceId: string) => ['change-requests', spaceId, 'list'] as const,
    list: (spaceId: string, status: string) => ['change-requests', spaceId, 'list', status] as const,
    count: (spaceId: string, status: string) => ['change-requests', spaceId, 'list', status, 'count'] as const,
    /** Everything read of one change request. */
    one: (spaceId: string, number: number) => ['change-requests', spaceId, number] as const,
    detail: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'detail'] as const,
    pages: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'pages'] as const,
    /** A page as of one revision of the change request: an edit based on it sends that revision as If-Match. */
    page: (spaceId: string, number: number, pageId: string, revision: string) =>
      ['change-requests', spaceId, number, 'page', pageId, revision] as const,
    /** The reusable contents of the change request (the list follows its revision, see cache.ts). */
    reusableList: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'reusable'] as const,
    /** One reusable content, with its markdown, as of one revision (an edit based on it sends it as If-Match). */
    reusable: (spaceId: string, number: number, reusableId: string, revision: string) =>
      ['change-requests', spaceId, number, 'reusable-one', reusableId, revision] as const,
    changes: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'changes'] as const,
    /** The files of the change request (a page's cover is chosen among its images). */
    files: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'files'] as const,
    diff: (spaceId: string, number: number, pageId: string) =>
      ['change-requests', spaceId, number, 'diff', pageId] as const,
    conflicts: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'conflicts'] as const,
    reviews: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'reviews'] as const,
    reviewers: (spaceId: string, number: number) => ['change-requests', spaceId, number, 'reviewers'] as const,
    /** Comment threads of the change request: the list, and each thread's replies. */
    /** `number` null: the threads on the space's own pages. */
    comments: (spaceId: string, number: number | null) => ['change-requests', spaceId, number, 'comments'] as const,
    commentList: (spaceId: string, number: number | null) =>
      ['change-requests', spaceId, number, 'comments', 'list'] as const,
    commentReplies: (spaceId: string, number: number | null, commentId: string) =>
      ['change-requests', spaceId, number, 'comments', 'replies', commentId] as const,
  },
  /** Docs sites of an organization; everything read of one site sits under `site(siteId)`. */
  sites: {
    lists: (organizationId: string) => ['sites', 'list', organizationId] as const,
    list: (organizationId: string, filters: { title?: string; published?: boolean; space?: string }) =>
      ['sites', 'list', organizationId, filters] as const,
    site: (siteId: string) => ['sites', 'site', siteId] as const,
    detail: (siteId: string) => ['sites', 'site', siteId, 'detail'] as const,
    /** The structure (sections, groups, site spaces), read from the published profile. */
    structure: (siteId: string) => ['sites', 'site', siteId, 'structure'] as const,
    shareLinks: (siteId: string) => ['sites', 'site', siteId, 'share-links'] as const,
    redirects: (siteId: string) => ['sites', 'site', siteId, 'redirects'] as const,
    adaptiveSchema: (siteId: string) => ['sites', 'site', siteId, 'adaptive-schema'] as const,
    templateConditions: (siteId: string) => ['sites', 'site', siteId, 'template-conditions'] as const,
    publishingAuth: (siteId: string) => ['sites', 'site', siteId, 'publishing-auth'] as const,
    customization: (siteId: string) => ['sites', 'site', siteId, 'customization'] as const,
  },
};
