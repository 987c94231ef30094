/**
 * Row types of every table. Timestamps are ISO-8601 UTC strings and booleans are 0/1 integers, so the same
 * queries run on SQLite and PostgreSQL.
 */
export interface Database {
  users: UsersTable;
  email_messages: EmailMessagesTable;
  email_rate_counters: EmailRateCountersTable;
  account_tokens: AccountTokensTable;
  notification_events: NotificationEventsTable;
  notifications: NotificationsTable;
  notification_watchers: NotificationWatchersTable;
  notification_settings: NotificationSettingsTable;
  notification_digests: NotificationDigestsTable;
  api_tokens: ApiTokensTable;
  user_photos: UserPhotosTable;
  login_attempts: LoginAttemptsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  invite_links: InviteLinksTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  revisions: RevisionsTable;
  objects: ObjectsTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  change_requests: ChangeRequestsTable;
  collab_documents: CollabDocumentsTable;
  collab_updates: CollabUpdatesTable;
  change_request_reviews: ReviewsTable;
  change_request_reviewers: RequestedReviewersTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  site_redirects: SiteRedirectsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  space_grants: SpaceGrantsTable;
  collection_grants: CollectionGrantsTable;
  saml_providers: SamlProvidersTable;
  saml_assertions: SamlAssertionsTable;
  translation_settings: TranslationSettingsTable;
  jobs: JobsTable;
  openapi_specs: OpenApiSpecsTable;
  openapi_versions: OpenApiVersionsTable;
  integrations: IntegrationsTable;
  integration_assets: IntegrationAssetsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_targets: IntegrationTargetsTable;
  integration_events: IntegrationEventsTable;
  integration_tokens: IntegrationTokensTable;
  server_secrets: ServerSecretsTable;
  org_invitations: OrgInvitationsTable;
  sso_identities: SsoIdentitiesTable;
  saml_requests: SamlRequestsTable;
  saml_completions: SamlCompletionsTable;
  org_domains: OrgDomainsTable;
  search_state: SearchStateTable;
  search_spaces: SearchSpacesTable;
  search_pages: SearchPagesTable;
  link_documents: LinkDocumentsTable;
  search_sections: SearchSectionsTable;
  search_includes: SearchIncludesTable;
  link_scopes: LinkScopesTable;
  link_pages: LinkPagesTable;
  link_files: LinkFilesTable;
  link_includes: LinkIncludesTable;
  links: LinksTable;
  link_deps: LinkDepsTable;
  link_targets: LinkTargetsTable;
  import_runs: ImportRunsTable;
  git_syncs: GitSyncsTable;
  git_sync_paths: GitSyncPathsTable;
  git_sync_redirects: GitSyncRedirectsTable;
  git_sync_commits: GitSyncCommitsTable;
  git_sync_runs: GitSyncRunsTable;
}

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  password_hash: string;
  photo_url: string | null;
  created_at: string;
  /** 1 for the account created at first start: the instance owner (verifies e-mail domains for organizations). */
  instance_owner?: number;
  /** When the password was last set through a reset link (the account page lists the API tokens that outlived it). */
  password_reset_at?: string | null;
  /** When the account proved it reads its address (null: not yet; invitations to it wait). */
  email_verified_at?: string | null;
  /** The hour (0–23, in `time_zone`) the daily digest is sent; 8 when unset. */
  digest_hour?: number | null;
  /** An IANA time zone (Europe/Paris) for the digest's hour and dates in mail; UTC when unset. */
  time_zone?: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** `api` tokens are sent as Bearer; `session` tokens live in the console's cookie. */
  kind: 'api' | 'session';
  label: string;
  token_hash: string;
  csrf_hash: string | null;
  /** For the token handed out at sign-in: the session it belongs to (revoked and expiring with it). */
  session_id: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  /** null: signed in with a password; else the SAML provider this session (or the token made in it) came through. */
  sso_provider_id?: string | null;
  /** Of a session: the browser's User-Agent and the client address when it signed in. */
  user_agent?: string | null;
  ip?: string | null;
}

export interface UserPhotosTable {
  user_id: string;
  /** Changes with each upload: part of the photo's URL. */
  id: string;
  content_type: string;
  data: Buffer;
  created_at: string;
}

export interface LoginAttemptsTable {
  id: string;
  email: string;
  ip: string;
  at: string;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  type: 'business' | 'community';
  email_domains: string;
  hostname: string | null;
  default_role: string | null;
  default_content_site: string | null;
  logo: string | null;
  sso: number;
  ai: number;
  invite_links: number;
  plan: string;
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  /** null = guest */
  role: string | null;
  disabled: number;
  joined_at: string;
  last_seen_at: string | null;
  /** 1 when the member may sign in through the organization's SAML provider. */
  sso: number;
}

export interface InviteLinksTable {
  id: string;
  organization_id: string;
  role: string | null;
  created_by: string;
  created_at: string;
}

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  /** a role, 'inherit', or null (no access by default) */
  default_level: string | null;
  position: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: string;
  default_level: string | null;
  position: string;
  revision_id: string;
  comments: number;
  /** Raised by every write to the space's own comment threads (see migration 013); 0 when created. */
  threads_version?: number;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  /** JSON array of parent revision ids */
  parents: string;
  type: 'edits' | 'merge' | 'rollback' | 'update';
  created_by: string | null;
  created_at: string;
  /** Root of the trie of pages (page id → entry), null when the revision has no pages. */
  pages_root: string | null;
  /** Root of the trie of files (file id → file), null when there are none. */
  files_root: string | null;
  /** JSON object of variables. */
  variables: string;
  /** Set on revisions made inside a change request, and on the merge revision of one. */
  change_request_id: string | null;
}

/** Immutable JSON objects addressed by the hash of their content. */
export interface ObjectsTable {
  id: string;
  data: string;
}

/** File bytes, addressed by their SHA-256. */
export interface BlobsTable {
  id: string;
  size: number;
  /** The bytes; empty when they are in chunks. */
  data: Buffer;
  /** Chunks of `blob_chunks` holding the bytes (0: they are in `data`). */
  chunks?: number;
}

/** One chunk (1 MiB, the last one shorter) of a chunked blob, or of an upload under way (`tmp-…`). */
export interface BlobChunksTable {
  blob_id: string;
  n: number;
  data: Buffer;
  created_at: string;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  number: number;
  status: 'draft' | 'open' | 'archived' | 'merged';
  subject: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  comments: number;
  /** Raised by every write to the change request's comment threads (see migration 013); 0 when created. */
  threads_version?: number;
  pending_update: string | null;
}

export interface ReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  status: 'approved' | 'changes-requested';
  /** The change request's revision when it was reviewed. */
  revision_id: string;
  comment: string | null;
  /** Who had asked this reviewer for the review it answered, if anyone. */
  requested_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface RequestedReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  /** Null for a comment on the space rather than in a change request. */
  change_request_id: string | null;
  author_id: string;
  page_id: string | null;
  /** The block anchored to, by its id in the page's document. */
  node_id: string | null;
  /** The start of the anchored block's text when the comment was posted. */
  node_preview: string | null;
  /** The revision (of the change request, or of the space) the comment was posted on. */
  revision_id: string;
  body: string;
  replies: number;
  posted_at: string;
  edited_at: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  author_id: string;
  body: string;
  posted_at: string;
  edited_at: string | null;
}

export interface CommentReactionsTable {
  comment_id: string;
  /** The comment or the reply reacted to. */
  target_id: string;
  user_id: string;
  emoji: string;
  reacted_at: string;
}

export interface SitesTable {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: string;
  basename: string | null;
  proxy: string | null;
  published: number;
  adaptive_enabled: number;
  agents_context: string;
  /** JSON of the adaptive schema, null when none was set. */
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  /** HS256 key visitor JWTs are signed with. */
  visitor_key: string;
  visitor_fallback_url: string | null;
  default_section_id: string | null;
  /** Default site space at the root (sites without sections). */
  default_site_space_id: string | null;
  /** Goes up with every change to the site or its structure. */
  version: number;
  /** JSON of the site's customization; null (or absent) until set: the defaults. */
  customization?: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: string;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  path: string;
  description: string | null;
  condition: string | null;
  icon: string | null;
  /** Among the site's top-level items (sections and groups), or within its group. */
  position: string;
  default_site_space_id: string | null;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null;
  /** section_id, or '' at the root. */
  parent_key: string;
  space_id: string;
  path: string;
  condition: string | null;
  position: string;
  created_at: string;
  /** JSON of the site space's overrides of the site's customization; null (or absent) when none. */
  customization?: string | null;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  key: string;
  active: number;
  created_at: string;
}

/** A change request's page edited together (domain/collab): see migration 029. */
export interface CollabDocumentsTable {
  /** `{spaceId}/{change request number}/{pageId}` (shared/contract/collab.ts). */
  name: string;
  change_request_id: string;
  page_id: string;
  /** The page's markdown the shared document was last in step with. */
  markdown: string;
  /** The editor schema the updates were made with (EDITOR_SCHEMA_VERSION). */
  schema_version: number;
  created_at: string;
  updated_at: string;
}

/** One Yjs update of a shared document, as an editor sent it (or several, merged). */
export interface CollabUpdatesTable {
  id: string;
  name: string;
  data: Uint8Array;
  created_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  /** The path it redirects from, under the site's root (after a share key): `/old/page`. */
  source: string;
  /** JSON of the contract's SiteRedirectDestination. */
  destination: string;
  created_at: string;
  updated_at: string;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  organization_id: string;
  user_id: string;
  role: 'owner' | 'member';
  added_at: string;
}

/** A role on a space given to a user or a team (exactly one of `user_id`, `team_id` is set). */
export interface SpaceGrantsTable {
  id: string;
  organization_id: string;
  space_id: string;
  user_id: string | null;
  team_id: string | null;
  role: string;
  created_at: string;
}

/** A role on a collection (and on everything inside it) given to a user or a team. */
export interface CollectionGrantsTable {
  id: string;
  organization_id: string;
  collection_id: string;
  user_id: string | null;
  team_id: string | null;
  role: string;
  created_at: string;
}

export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  sso_url: string;
  /** The identity provider's entity id (the Issuer of its responses). */
  idp_entity_id: string;
  /** PEM X.509 certificate the identity provider signs with. */
  certificate: string;
  default_team_id: string | null;
  default_role: string | null;
  status: 'pending' | 'active';
  created_at: string;
  updated_at: string;
}

export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
}

export interface TranslationSettingsTable {
  id: string;
  organization_id: string;
  title: string;
  /** JSON array of language codes. */
  languages: string;
  created_at: string;
  updated_at: string;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** An invitation to join an organization, sent to an address (with or without an account). */
export interface OrgInvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: string | null;
  invited_by: string;
  created_at: string;
  /** The hash of the secret in the link last mailed (null: none mailed yet, for invitations from before mail). */
  token_hash: string | null;
  expires_at: string;
  last_sent_at: string | null;
  sends: number;
}

/** An account a SAML provider may sign in: `created` by the provider, or `linked` by the account's owner. */
export interface SsoIdentitiesTable {
  provider_id: string;
  organization_id: string;
  /** The e-mail address the provider asserts (lower case). */
  subject: string;
  user_id: string;
  kind: 'created' | 'linked';
  created_at: string;
}

/** An AuthnRequest this server sent: a response must answer it (InResponseTo), once. */
export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  purpose: 'signin' | 'link';
  /** The account being linked (purpose `link`). */
  user_id: string | null;
  created_at: string;
  expires_at: string;
  /** Of a sign-in started by the start URL: the hash of the secret set as a cookie in that browser. */
  binding_hash?: string | null;
}

/** A SAML sign-in checked at the ACS URL, to be completed in the browser that started it (one use, short-lived). */
export interface SamlCompletionsTable {
  id: string;
  provider_id: string;
  user_id: string;
  organization_id: string;
  binding_hash: string;
  expires_at: string;
}

/** An e-mail domain of an organization; only a verified one lets its providers create accounts. */
export interface OrgDomainsTable {
  organization_id: string;
  domain: string;
  /** The value of the DNS TXT record that proves control of the domain. */
  token: string;
  verified_at: string | null;
  verified_by: 'dns' | 'owner' | null;
  created_at: string;
  /** A domain verified by DNS: when its record was last looked up again, and how many look-ups in a row missed it. */
  checked_at?: string | null;
  misses?: number;
}

/** The one row (id 1): the text search language the index was built with (SEARCH_LANGUAGE). */
export interface SearchStateTable {
  id: number;
  language: string;
}

/** Which revision of each space the search index describes. */
export interface SearchSpacesTable {
  space_id: string;
  revision_id: string;
}

/**
 * One document page of a space's current revision, as search reads it. `anchors`, `headings` and `body` hold one
 * entry per section (U+001E between them); the first section is the text before the first heading. SQLite adds
 * an integer `id` (the FTS5 rowid), PostgreSQL a `tsv` column: both are the database's own business.
 */
export interface SearchPagesTable {
  space_id: string;
  page_id: string;
  version: string;
  title: string;
  anchors: string;
  headings: string;
  body: string;
}

// Links and backlinks (migration 011; see src/server/domain/links).

/** The links and heading anchors of one page body, by the hash of its document object. */
/** The searchable sections of one page body, by the hash of its document (migration 021). */
/** A reusable content a page's body includes (by the name it is included by, or its slug), as last indexed. */
export interface SearchIncludesTable {
  space_id: string;
  page_id: string;
  name: string;
}

export interface SearchSectionsTable {
  hash: string;
  /** JSON `[[anchor, heading, text], ...]`. */
  data: string;
}

export interface LinkDocumentsTable {
  hash: string;
  /** JSON `{l: [[href, image 0|1], ...], a: [anchor, ...]}`. */
  data: string;
}

/** One set of links: a space's current content (id = space id) or a change request's (id = its id). */
export interface LinkScopesTable {
  id: string;
  space_id: string;
  change_request_id: string | null;
  revision_id: string;
  /** PUBLIC_URL the statuses were computed with (`in-app` depends on it). */
  app_base: string;
  /** Link targets, and those of them broken and in-app. */
  targets: number;
  broken: number;
  in_app: number;
  updated_at: string;
}

export interface LinkPagesTable {
  scope_id: string;
  page_id: string;
  type: string;
  title: string;
  path: string;
  path_key: string;
  document: string | null;
  /** Old ids of its headings that still lead to them (JSON array; PageVersion.anchors), or null. */
  anchors: string | null;
}

/** A reusable content a page of a scope includes (by the name it is included by, or its slug). */
export interface LinkIncludesTable {
  scope_id: string;
  page_id: string;
  name: string;
}

export interface LinkFilesTable {
  scope_id: string;
  file_id: string;
  name_key: string;
}

/** One distinct link (href and relation) of one page. */
export interface LinksTable {
  scope_id: string;
  id: string;
  page_id: string;
  position: number;
  href: string;
  relation: string;
  status: string;
  target_key: string;
}

/** A page id or path, file id or name that a link's status depends on. */
export interface LinkDepsTable {
  scope_id: string;
  dep_key: string;
  link_id: string;
  page_id: string;
  anchor: number;
}

/** What links point at, with how many links of the scope do. */
export interface LinkTargetsTable {
  scope_id: string;
  target_key: string;
  status: string;
  relation: string;
  data: string;
  usages: number;
}
/** One import (`POST …/content/import`) and how far it got. */
export interface ImportRunsTable {
  space_id: string;
  /** Chosen by the client (`?importId=`) or generated; unique in the space. */
  id: string;
  /** The change request imported into; null for an import into the space. */
  change_request_id: string | null;
  source: string;
  /** Null for an upload. */
  url: string | null;
  status: 'running' | 'completed' | 'failed';
  stage: string;
  imported_resources: number;
  total_resources: number;
  revision_id: string | null;
  message: string | null;
  /** JSON `[{path, reason}]`: what a completed import left out; null when nothing. */
  skipped: string | null;
  /** JSON `{status, message, issues?, reason?}`: how a failed import is answered; null otherwise. */
  error?: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Background work any process may run (see jobs/queue.ts). */
export interface JobsTable {
  id: string;
  kind: string;
  /** What the job is about (one queued job per kind and key). */
  key: string;
  /** JSON. */
  payload: string;
  /** queued, running, done, failed. */
  state: string;
  attempts: number;
  run_after: string;
  /** While running: the lease; once past, another process may claim the job again. */
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  /** Of the jobs of one group, one runs at a time, across every process (null: no group). */
  group_key?: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenApiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  visibility: string;
  source_url: string | null;
  /** The text of an inline source, kept until processed. */
  source_text: string | null;
  source_revision: number;
  processing_state: string;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: string | null;
  /** JSON array of {message, code?}. */
  last_errors: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenApiVersionsTable {
  id: string;
  spec_id: string;
  /** sha256 of the text, hex. */
  hash: string;
  filename: string;
  source_url: string | null;
  text: string;
  /** JSON of the parsed document ($refs kept). */
  document: string;
  /** "openapi 3.1.0", "swagger 2.0". */
  specification: string;
  created_at: string;
}

/** JSON columns hold the contract's shapes as published. */
export interface IntegrationsTable {
  name: string;
  organization_id: string;
  version: number;
  title: string;
  description: string;
  summary: string | null;
  visibility: string;
  target: string;
  runtime: string;
  scopes: string;
  categories: string;
  blocks: string | null;
  content_sources: string | null;
  configurations: string | null;
  external_links: string;
  content_security_policy: string | null;
  script: string;
  /** AES-256-GCM of the JSON map (see domain/integrations/secrets.ts); never returned. */
  secrets: string | null;
  icon_asset_id: string | null;
  /** JSON array of asset ids. */
  preview_asset_ids: string;
  /** Host names of the blocks' unfurl patterns, each between spaces. */
  unfurl_domains: string;
  has_blocks: number;
  has_content_sources: number;
  dev_tunnel_url: string | null;
  dev_all: number;
  /** The account it writes as (lib/integration-accounts.ts); kept when it is unpublished. */
  account_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface IntegrationAssetsTable {
  id: string;
  integration_name: string;
  content_type: string;
  data: Buffer;
}

export interface IntegrationInstallationsTable {
  id: string;
  integration_name: string;
  organization_id: string;
  status: string;
  space_selection: string;
  site_selection: string;
  configuration: string;
  external_ids: string;
  created_at: string;
  updated_at: string;
  /** JSON list of the scopes the organization granted (the integration's when installed; migration 039). */
  scopes: string | null;
}

/** An installation's spaces and sites. */
export interface IntegrationTargetsTable {
  installation_id: string;
  kind: string;
  target_id: string;
  status: string;
  configuration: string;
  external_ids: string;
  created_at: string;
  updated_at: string;
}

export interface IntegrationEventsTable {
  id: string;
  integration_name: string;
  installation_id: string | null;
  /** The installing organization (the script's process is its own: workers/sandbox). */
  organization_id: string | null;
  payload: string;
  /** pending | success | ignored (the script does not handle it: 406) | failed */
  status: string;
  created_at: string;
  attempts: number;
  duration_ms: number | null;
  error: string | null;
  /** JSON list of `{level, message}` the script logged. */
  trace: string | null;
}

/** A token handed to an integration's script with an event (migration 039): hashed, short-lived. */
export interface IntegrationTokensTable {
  id: string;
  token_hash: string;
  integration_name: string;
  /** null: the integration's own token; else the installation it acts for. */
  installation_id: string | null;
  /** The organization of the event it was handed with. */
  organization_id: string;
  /** JSON list of the scopes it holds (an installation token: the integration's scopes when it was minted). */
  scopes: string;
  created_at: string;
  expires_at: string;
}

/** A space's Git Sync: its repository, settings, secrets and sync state (migration 030). */
export interface GitSyncsTable {
  space_id: string;
  /** https URL, without credentials. */
  url: string;
  branch: string;
  /** The folder of the repository the space mirrors ('' for its root). */
  root: string;
  /** The content's folder inside `root` (its `.gitbook.yaml`'s `root:`), as the last import found it. */
  content_root: string | null;
  /** `import`: the repository's changes come in; `two-way`: merges are pushed back too. */
  direction: 'import' | 'two-way';
  /** Encrypted JSON `{token?, webhookSecret}` (integrations/secrets.ts). */
  secrets: string;
  author_name: string;
  author_email: string;
  /** Minutes between two looks at the branch; 0: none (a webhook tells). */
  poll_minutes: number;
  provider: string | null;
  /** The repository's tree URL (for "edit on Git" links). */
  tree_url: string | null;
  /** The last commit synced, and the revision holding the same content. */
  commit_oid: string | null;
  revision_id: string | null;
  /** A change request an import left open because it conflicts with the space: exports wait for it. */
  conflict_change_request_id: string | null;
  synced_at: string | null;
  polled_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Which repository file a page, file or reusable content is, at the sync state of its space. */
export interface GitSyncPathsTable {
  space_id: string;
  /** Relative to the synced folder. */
  path: string;
  kind: 'page' | 'file' | 'reusable';
  object_id: string;
  blob_oid: string;
}

/** A redirect of the synced repository's `.gitbook.yaml`: an old path of the published space → a page (migration 031). */
export interface GitSyncRedirectsTable {
  space_id: string;
  /** The old path, from the space's address on a site (`help/billing`). */
  source: string;
  page_id: string;
}

/** The commit a revision came from or went to (`revision.git`). */
export interface GitSyncCommitsTable {
  space_id: string;
  revision_id: string;
  oid: string;
  message: string;
  ref: string;
  url: string | null;
  created_by_gitbook: number;
  created_at: string;
}

/** One sync of a space with its repository. */
export interface GitSyncRunsTable {
  id: string;
  space_id: string;
  direction: 'import' | 'export';
  trigger: 'api' | 'manual' | 'webhook' | 'poll' | 'merge';
  status: 'queued' | 'running' | 'success' | 'failure' | 'conflict' | 'skipped';
  ref: string;
  commit_oid: string | null;
  revision_id: string | null;
  change_request_id: string | null;
  message: string | null;
  error: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** How far an outgoing e-mail got (domain/mail/outbox.ts). */
export type EmailState = 'queued' | 'held' | 'sending' | 'sent' | 'failed' | 'uncertain' | 'suppressed' | 'bounced';

/** One outgoing e-mail, composed once: `raw` is the exact MIME message every attempt sends. */
export interface EmailMessagesTable {
  id: string;
  /** The cause, unique: queuing the same cause twice makes one message. */
  dedupe_key: string;
  /** security | invitation | notification | digest */
  category: string;
  /** The template: password-reset, password-changed, … */
  kind: string;
  to_address: string;
  to_user_id: string | null;
  sender_user_id: string | null;
  organization_id: string | null;
  /** The in-app notification it carries (checked again just before sending). */
  notification_id: string | null;
  subject: string;
  message_id: string;
  envelope_from: string;
  /** Emptied once security mail is sent: its link must not stay readable in the database. */
  raw: string | null;
  /** Its plain text and HTML parts, for the instance owner's outbox (emptied with `raw`). */
  text_body: string | null;
  html_body: string | null;
  state: EmailState;
  attempts: number;
  last_error: string | null;
  smtp_reply: string | null;
  created_at: string;
  updated_at: string;
  send_started_at: string | null;
  sent_at: string | null;
}

export interface EmailRateCountersTable {
  scope: string;
  key: string;
  window_start: string;
  count: number;
}

/** A link mailed to an account's address; only the secret's hash is kept. */
export interface AccountTokensTable {
  id: string;
  user_id: string;
  /** password-reset | verify-email | change-email */
  purpose: string;
  token_hash: string;
  /** The address the link was sent to. */
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  created_ip: string | null;
}

/** Something that happened, recorded with the change that caused it; fanned out to people by the `notify` job. */
export interface NotificationEventsTable {
  id: string;
  kind: string;
  organization_id: string;
  space_id: string | null;
  change_request_id: string | null;
  page_id: string | null;
  comment_id: string | null;
  reply_id: string | null;
  actor_id: string | null;
  /** JSON: what the kind needs besides (review status, mentioned people, requested reviewers, an error…). */
  data: string;
  created_at: string;
}

/** One person's notification of one event. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  event_id: string;
  kind: string;
  organization_id: string;
  /** Why they got it: mention | reviewer | author | participant | watcher | inviter | starter */
  reason: string;
  /** in-app | email | digest */
  channel: string;
  created_at: string;
  read_at: string | null;
  /** For the digest channel: pending | included | dropped */
  digest_state: string | null;
  email_message_id: string | null;
}

export interface NotificationWatchersTable {
  /** change-request | page */
  target_kind: string;
  target_id: string;
  user_id: string;
  reason: string;
  muted: number;
  created_at: string;
}

export interface NotificationSettingsTable {
  user_id: string;
  kind: string;
  channel: string;
}

export interface NotificationDigestsTable {
  user_id: string;
  due_at: string;
  last_sent_at: string | null;
}
