/**
 * The contract's constants that the console's first download reads (limits, enumerations, patterns, cookie
 * names), in a module without zod. Importing any schema module brings zod and every schema with it: bundlers
 * keep each `z.object(...)` call of a module they include. Each constant stays exported by the module of its
 * subject too.
 */

// common
/**
 * Organization roles, from most to least powerful (the seed's order: a reviewer outranks an editor, so reviewers
 * edit and merge, editors edit). A member role `null` means guest. Roles are stored by name.
 */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
/** Longest id accepted anywhere (ids made here are 26 characters; imported and client-chosen ones may be longer). */
export const ID_MAX = 64;
/** Longest URL accepted anywhere: links, logos and icons, and the addresses the server fetches. */
export const URL_MAX = 2048;

// organizations
/** Longest invite link id accepted. */
export const INVITE_ID_MAX = 128;

// auth
export const PASSWORD_MIN = 8;
export const DISPLAY_NAME_MAX = 100;
export const EMAIL_MAX = 254;
/** Name of the cookie carrying the console session, and of the readable cookie with its CSRF token. */
export const SESSION_COOKIE = 'ds_session';
export const CSRF_COOKIE = 'ds_csrf';
export const CSRF_HEADER = 'x-csrf-token';

// spaces
/** Days a deleted space stays restorable before it is removed for good. */
export const SPACE_TRASH_DAYS = 7;
export const SPACE_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const;
export const SPACE_EDIT_MODES = ['live', 'locked'] as const;

// members
export const MEMBER_SEARCH_MAX = 100;
export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt'] as const;

// search
export const SEARCH_QUERY_MAX = 512;

// content
/** Largest markdown body of one page, in characters. */
export const PAGE_MARKDOWN_MAX = 500_000;

// teams
export const TEAM_TITLE_MAX = 64;

// sites
export const SITE_TITLE_MAX = 128;
/** Longest share key accepted (of a site's share link, or passed to read a space through one). */
export const SHARE_KEY_MAX = 256;

// change-requests
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export const CHANGE_REQUEST_SUBJECT_MAX = 100;

// integrations
export const INTEGRATION_NAME_MAX = 100;
export const INTEGRATION_NAME_PATTERN = /^[a-zA-Z0-9-_.]+$/;
/** Longest text the integrations directory searches for (in names and descriptions). */
export const INTEGRATION_SEARCH_MAX = 100;
/** A name of dots only (`.`, `..`) would read as a path segment: refused. */
export const DOTS_ONLY = /^\.+$/;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'gitsync',
  'marketing',
  'visitor-auth',
  'other',
] as const;

// openapi
export const OPENAPI_SLUG_MAX = 100;
export const OPENAPI_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// pagination (src/shared/pagination.ts)
/** Bounds of the `limit` query parameter of every list, and its default. */
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 1000;
export const LIST_LIMIT_DEFAULT = 50;
