import { z } from 'zod';
import { SHARE_KEY_MAX, SITE_TITLE_MAX } from './constants.js';
import { customizationSchema } from './customization.js';
import { idSchema, timestampSchema, URL_MAX } from './common.js';
import { spaceSchema } from './spaces.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema, pagedQuerySchema, queryBoolean } from '../pagination.js';

export { SHARE_KEY_MAX, SITE_TITLE_MAX };

/**
 * Docs sites: the site itself, its structure (sections, section groups, site spaces), share links, adaptive
 * content and its published profile. Limits follow api.md, then the published 0.143.2 contract.
 */

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const siteTypeSchema = z.enum(SITE_TYPES);
export type SiteType = z.infer<typeof siteTypeSchema>;

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const siteVisibilitySchema = z.enum(SITE_VISIBILITIES);
export type SiteVisibility = z.infer<typeof siteVisibilitySchema>;

export const SITE_AGENTS_CONTEXT = ['excluded', 'included'] as const;
export const siteAgentsContextSchema = z.enum(SITE_AGENTS_CONTEXT);

export const SITE_TITLE_MIN = 2;
export const SITE_BASENAME_MAX = 100;
export const SITE_PROXY_MAX = 512;
export const SECTION_TITLE_MIN = 2;
export const SECTION_TITLE_MAX = 128;
export const SECTION_DESCRIPTION_MAX = 256;
export const SITE_PATH_MAX = 100;
export const CONDITION_MIN = 1;
export const CONDITION_MAX = 1024;
export const ICON_MAX = 50;
export const SECTION_GROUP_TITLE_MAX = 100;
export const SHARE_LINK_NAME_MAX = 50;
/** Spaces given at once to site creation, and sections given at once to a new section group. */
export const SITE_BATCH_MAX = 50;
/** Items a site's structure holds at most (sections, groups and site spaces each): the whole structure is read at once. */
export const SITE_STRUCTURE_MAX = 500;
/** Shortest visitor signing key accepted when one is set by hand (HS256 wants at least 256 bits). */
export const VISITOR_KEY_MIN = 32;
export const VISITOR_KEY_MAX = 256;

export const siteTitleSchema = z.string().trim().min(SITE_TITLE_MIN).max(SITE_TITLE_MAX);
/** A path segment of the published site: letters, digits, `-`, `_` and `.`, starting with a letter or digit. */
export const sitePathSchema = z
  .string()
  .min(1)
  .max(SITE_PATH_MAX)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Letters, digits, "-", "_" and ".", starting with a letter or digit');
export const conditionSchema = z.string().min(CONDITION_MIN).max(CONDITION_MAX);
export const iconSchema = z.string().max(ICON_MAX);
export const sectionTitleSchema = z.string().trim().min(SECTION_TITLE_MIN).max(SECTION_TITLE_MAX);
export const sectionDescriptionSchema = z.string().max(SECTION_DESCRIPTION_MAX);
export const sectionGroupTitleSchema = z.string().trim().min(1).max(SECTION_GROUP_TITLE_MAX);
export const shareLinkNameSchema = z.string().max(SHARE_LINK_NAME_MAX);
/** A host followed by one or more path segments, e.g. `example.com/docs` (the published contract's pattern). */
export const siteProxySchema = z
  .string()
  .max(SITE_PROXY_MAX)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'A host followed by a path, e.g. example.com/docs');

// Responses

export const sitePermissionsSchema = z.object({
  view: z.boolean(),
  access: z.boolean(),
  edit: z.boolean(),
  create: z.boolean(),
  admin: z.boolean(),
  installIntegration: z.boolean(),
  viewAdaptiveSchema: z.boolean(),
  editAdaptiveSchema: z.boolean(),
});

export const siteSchema = z.object({
  object: z.literal('site'),
  id: z.string(),
  type: siteTypeSchema,
  appliedType: siteTypeSchema,
  title: z.string(),
  basename: z.string().optional(),
  proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
  visibility: siteVisibilitySchema,
  defaultLevel: z.literal('inherit'),
  published: z.boolean(),
  siteSpaces: z.number().int(),
  createdAt: timestampSchema,
  adaptiveContent: z.object({ enabled: z.boolean() }),
  agentsContext: siteAgentsContextSchema,
  features: z.array(z.object({ id: z.string(), plan: siteTypeSchema, frozen: z.boolean() })),
  permissions: sitePermissionsSchema,
  urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
});
export type Site = z.infer<typeof siteSchema>;
export const siteListSchema = listSchema(siteSchema);

export const siteSpaceSchema = z.object({
  object: z.literal('site-space'),
  id: z.string(),
  path: z.string(),
  section: z.string().optional(),
  space: spaceSchema,
  title: z.string(),
  default: z.boolean(),
  condition: z.string().optional(),
  urls: z.object({ published: z.string().optional() }),
});
export type SiteSpace = z.infer<typeof siteSpaceSchema>;
export const siteSpaceListSchema = listSchema(siteSpaceSchema);

export const siteSectionSchema = z.object({
  object: z.literal('site-section'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  default: z.boolean(),
  path: z.string(),
  condition: z.string().optional(),
  sectionGroup: z.string().optional(),
  icon: z.string().optional(),
  siteSpaces: z.array(siteSpaceSchema),
  urls: z.object({ published: z.string().optional() }),
});
export type SiteSection = z.infer<typeof siteSectionSchema>;
export const siteSectionListSchema = listSchema(siteSectionSchema);

export const siteSectionGroupSchema = z.object({
  object: z.literal('site-section-group'),
  id: z.string(),
  title: z.string(),
  icon: z.string().optional(),
  /** The group's sections, in order (`children` says the same: groups do not nest here). */
  sections: z.array(siteSectionSchema),
  children: z.array(siteSectionSchema),
});
export type SiteSectionGroup = z.infer<typeof siteSectionGroupSchema>;
export const siteSectionGroupListSchema = listSchema(siteSectionGroupSchema);

export const siteStructureSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sections'), structure: z.array(z.union([siteSectionSchema, siteSectionGroupSchema])) }),
  z.object({ type: z.literal('siteSpaces'), structure: z.array(siteSpaceSchema) }),
]);
export type SiteStructure = z.infer<typeof siteStructureSchema>;

export const shareLinkSchema = z.object({
  object: z.literal('share-link'),
  id: z.string(),
  createdAt: timestampSchema,
  name: z.string().optional(),
  active: z.boolean(),
  urls: z.object({ published: z.string().optional() }),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkListSchema = listSchema(shareLinkSchema);

/** Claims an adaptive schema may declare, signed and unsigned each: enough for any audience, and a bound on its cost. */
export const ADAPTIVE_CLAIMS_MAX = 500;
/** A claim of the adaptive schema: a boolean with a description. */
export const adaptiveClaimSchema = z.object({ type: z.literal('boolean'), description: z.string() });
/** The documented shape of an adaptive schema (validated as JSON Schema draft-07 by the server). */
export const adaptiveJsonSchemaSchema = z.object({
  $schema: z.string().optional(),
  $id: z.string().optional(),
  type: z.literal('object'),
  properties: z.record(z.string(), z.unknown()),
  additionalProperties: z.literal(false),
});
export type AdaptiveJsonSchema = z.infer<typeof adaptiveJsonSchemaSchema>;
export type AdaptiveClaim = z.infer<typeof adaptiveClaimSchema>;

export const siteAdaptiveSchemaSchema = z.object({
  object: z.literal('site-adaptive-schema'),
  jsonSchema: adaptiveJsonSchemaSchema,
  updatedAt: timestampSchema,
});
export const updateAdaptiveSchemaBodySchema = z.object({
  jsonSchema: z.record(z.string(), z.unknown()),
});
export type UpdateAdaptiveSchemaBody = z.infer<typeof updateAdaptiveSchemaBodySchema>;
export const templateConditionsSchema = z.object({
  items: z.array(z.object({ description: z.string(), condition: z.string() })),
});

export const publishedContentSiteSchema = z.object({
  object: z.literal('published-content-site'),
  site: siteSchema,
  structure: siteStructureSchema,
  customizations: z.object({ site: customizationSchema, siteSpaces: z.record(z.string(), customizationSchema) }),
  scripts: z.array(
    z.object({ script: z.string(), contentSecurityPolicy: z.string().optional(), cookies: z.boolean() }),
  ),
});

/**
 * A site manager's preview grant (an extension): `url` opens the published site, whatever its visibility, for
 * `expiresAt` (15 minutes); the grant lasts while its user manages the organization.
 */
export const sitePreviewGrantSchema = z.object({
  object: z.literal('site-preview-grant'),
  url: z.string(),
  expiresAt: z.string(),
});
export type SitePreviewGrant = z.infer<typeof sitePreviewGrantSchema>;

/** The visitor-authentication settings of a site: the key visitor JWTs are signed with (HS256). */
export const publishingAuthSchema = z.object({
  object: z.literal('publishing-auth'),
  backend: z.literal('custom'),
  privateKey: z.string(),
  fallbackURL: z.string().optional(),
});
export const updatePublishingAuthBodySchema = z.object({
  backend: z.literal('custom').optional(),
  /** Sets the signing key by hand (otherwise use `regenerate`). */
  privateKey: z.string().min(VISITOR_KEY_MIN).max(VISITOR_KEY_MAX).optional(),
  fallbackURL: z
    .url({ protocol: /^https?$/, message: 'An http(s) URL' })
    .max(URL_MAX)
    .nullable()
    .optional(),
});
export type UpdatePublishingAuthBody = z.infer<typeof updatePublishingAuthBodySchema>;

// Requests

export const siteParamsSchema = organizationParamsSchema.extend({ siteId: idSchema });
export const siteSectionParamsSchema = siteParamsSchema.extend({ siteSectionId: idSchema });
export const siteSpaceParamsSchema = siteParamsSchema.extend({ siteSpaceId: idSchema });
export const siteSectionGroupParamsSchema = siteParamsSchema.extend({ siteSectionGroupId: idSchema });
export const groupSectionParamsSchema = siteSectionGroupParamsSchema.extend({ siteSectionId: idSchema });
export const shareLinkParamsSchema = siteParamsSchema.extend({ shareLinkId: idSchema });

export const shareKeySchema = z.string().min(1).max(SHARE_KEY_MAX);

export const listSitesQuerySchema = pagedQuerySchema.extend({
  space: idSchema.optional(),
  title: z.string().max(SITE_TITLE_MAX).optional(),
  published: queryBoolean.optional(),
  type: z
    .union([siteTypeSchema, z.array(siteTypeSchema)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
});
export type ListSitesQuery = z.infer<typeof listSitesQuerySchema>;

export const createSiteBodySchema = z.object({
  type: siteTypeSchema.optional(),
  title: siteTitleSchema.optional(),
  visibility: siteVisibilitySchema.optional(),
  spaces: z.array(idSchema).max(SITE_BATCH_MAX).optional(),
});
export type CreateSiteBody = z.infer<typeof createSiteBodySchema>;

export const updateSiteBodySchema = z.object({
  title: siteTitleSchema.optional(),
  visibility: siteVisibilitySchema.optional(),
  /** `null` removes the basename. */
  basename: z.string().trim().min(1).max(SITE_BASENAME_MAX).nullable().optional(),
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  agentsContext: siteAgentsContextSchema.optional(),
  defaultSiteSpace: idSchema.optional(),
  defaultSiteSection: idSchema.optional(),
  /** `null` removes the proxy. */
  proxy: siteProxySchema.nullable().optional(),
});
export type UpdateSiteBody = z.infer<typeof updateSiteBodySchema>;

export const shareKeyQuerySchema = z.object({ shareKey: shareKeySchema.optional() });
export const listSiteSectionsQuerySchema = pagedQuerySchema.extend(shareKeyQuerySchema.shape);
export const listSiteSpacesQuerySchema = pagedQuerySchema.extend({
  shareKey: shareKeySchema.optional(),
  default: queryBoolean.optional(),
});

export const createSectionBodySchema = z.object({
  spaceId: idSchema,
  title: sectionTitleSchema.nullable().optional(),
  icon: iconSchema.nullable().optional(),
});
export type CreateSectionBody = z.infer<typeof createSectionBodySchema>;

/** PATCH of a section: unset keeps a field, `null` removes the condition, icon or description. */
export const updateSectionBodySchema = z.object({
  title: sectionTitleSchema.optional(),
  path: sitePathSchema.optional(),
  defaultSiteSpace: idSchema.optional(),
  condition: conditionSchema.nullable().optional(),
  icon: iconSchema.nullable().optional(),
  description: sectionDescriptionSchema.nullable().optional(),
});
export type UpdateSectionBody = z.infer<typeof updateSectionBodySchema>;

export const createSiteSpaceBodySchema = z.object({ spaceId: idSchema, sectionId: idSchema.optional() });
export type CreateSiteSpaceBody = z.infer<typeof createSiteSpaceBodySchema>;

export const updateSiteSpaceBodySchema = z.object({
  path: sitePathSchema.optional(),
  condition: conditionSchema.nullable().optional(),
  spaceId: idSchema.optional(),
});
export type UpdateSiteSpaceBody = z.infer<typeof updateSiteSpaceBodySchema>;

export const createSectionGroupBodySchema = z.object({
  title: sectionGroupTitleSchema,
  icon: iconSchema.nullable().optional(),
  sections: z.array(idSchema).max(SITE_BATCH_MAX).optional(),
});
export type CreateSectionGroupBody = z.infer<typeof createSectionGroupBodySchema>;
export const updateSectionGroupBodySchema = z.object({
  title: sectionGroupTitleSchema.optional(),
  icon: iconSchema.nullable().optional(),
});
export type UpdateSectionGroupBody = z.infer<typeof updateSectionGroupBodySchema>;
export const addSectionToGroupBodySchema = z.object({ sectionId: idSchema });

export const createShareLinkBodySchema = z.object({ name: shareLinkNameSchema.optional() });
export const updateShareLinkBodySchema = z
  .object({ active: z.boolean().optional(), name: shareLinkNameSchema.optional() })
  .refine((b) => b.active !== undefined || b.name !== undefined, {
    message: 'Give at least one of active and name',
    path: ['active'],
  });
export type UpdateShareLinkBody = z.infer<typeof updateShareLinkBodySchema>;

// Moves and sorting

export const SITE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export type SiteItemType = (typeof SITE_ITEM_TYPES)[number];
export const siteItemPointerSchema = z.object({ type: z.enum(SITE_ITEM_TYPES), id: idSchema });
export type SiteItemPointer = z.infer<typeof siteItemPointerSchema>;

/** Where an item goes among its siblings: before one, after one, both when adjacent, or at the end when neither. */
export interface SitePosition {
  before?: SiteItemPointer;
  after?: SiteItemPointer;
}

export const sortSiteStructureBodySchema = z.object({
  item: siteItemPointerSchema,
  position: z.object({ before: siteItemPointerSchema.optional(), after: siteItemPointerSchema.optional() }).optional(),
});
export type SortSiteStructureBody = z.infer<typeof sortSiteStructureBodySchema>;

const sectionPointerSchema = z.object({ type: z.literal('site-section'), siteSection: idSchema });
export const moveSectionBodySchema = z
  .object({
    position: z.object({ before: sectionPointerSchema.optional(), after: sectionPointerSchema.optional() }).optional(),
  })
  .nullish();
const siteSpacePointerSchema = z.object({ type: z.literal('site-space'), siteSpace: idSchema });
export const moveSiteSpaceBodySchema = z
  .object({
    position: z
      .object({ before: siteSpacePointerSchema.optional(), after: siteSpacePointerSchema.optional() })
      .optional(),
  })
  .nullish();
const groupPointerSchema = z.object({ type: z.enum(['site-section', 'site-section-group']), id: idSchema });
export const moveSectionGroupBodySchema = z
  .object({
    position: z.object({ before: groupPointerSchema.optional(), after: groupPointerSchema.optional() }).optional(),
  })
  .nullish();

export const siteStructureItemSchema = z.union([siteSpaceSchema, siteSectionSchema, siteSectionGroupSchema]);

/**
 * `POST /v1/urls/published` (0.143.2 resolvePublishedContentByUrl), unauthenticated: the URL of a published site to
 * resolve, whether to answer a refused visitor token with the sign-in redirect, and the visitor's token. Other
 * fields (a renderer's `cacheBust`) are ignored.
 */
export const resolvePublishedUrlBodySchema = z.object({
  url: z.string().min(1).max(4096),
  redirectOnError: z.boolean().optional(),
  visitor: z
    .object({
      jwtToken: z.string().max(16_384).optional(),
      unsignedClaims: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

/** What a published URL shows (`PublishedSiteContent`), or where it leads instead. */
export const publishedSiteContentLookupSchema = z.union([
  z.object({
    site: z.string(),
    siteSection: z.string().optional(),
    siteSpace: z.string(),
    space: z.string(),
    changeRequest: z.string().optional(),
    revision: z.string().optional(),
    pathname: z.string(),
    basePath: z.string(),
    siteBasePath: z.string(),
    apiToken: z.string(),
    organization: z.string(),
    shareKey: z.string().optional(),
    complete: z.boolean(),
    contextId: z.string().optional(),
    canonicalUrl: z.string(),
  }),
  z.object({ target: z.enum(['application', 'content', 'external']), redirect: z.string() }),
]);

/**
 * Site redirects (0.143.2): a path under the site's root (`/old/page`: segments of unreserved characters or
 * percent-escapes, as the contract's pattern says, under 512 characters) leading to a section, a site space or a
 * page of the site.
 */
export const SITE_REDIRECT_SOURCE_MAX = 511;
export const siteRedirectSourceSchema = z
  .string()
  .max(SITE_REDIRECT_SOURCE_MAX)
  .regex(
    /^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$/,
    'A path such as /old/page: segments of letters, digits, "-", ".", "_", "~" or %-escapes',
  );
export const siteRedirectDestinationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site-section'), siteSectionId: idSchema }),
  z.object({ kind: z.literal('site-space'), siteSpaceId: idSchema }),
  z.object({ kind: z.literal('site-page'), siteSpaceId: idSchema, pageId: idSchema }),
]);
export type SiteRedirectDestination = z.infer<typeof siteRedirectDestinationSchema>;
export const siteRedirectSchema = z.object({
  object: z.literal('site-redirect'),
  id: z.string(),
  source: z.string(),
  destination: siteRedirectDestinationSchema,
});
export type SiteRedirect = z.infer<typeof siteRedirectSchema>;
export const siteRedirectListSchema = listSchema(siteRedirectSchema);
export const createSiteRedirectBodySchema = z.object({
  source: siteRedirectSourceSchema,
  destination: siteRedirectDestinationSchema,
});
export const updateSiteRedirectBodySchema = z.object({
  source: siteRedirectSourceSchema.optional(),
  destination: siteRedirectDestinationSchema.optional(),
});
export type UpdateSiteRedirectBody = z.infer<typeof updateSiteRedirectBodySchema>;
export const siteRedirectParamsSchema = siteParamsSchema.extend({ siteRedirectId: idSchema });
export const listSiteRedirectsQuerySchema = pagedQuerySchema.extend({
  search: z.string().max(SITE_REDIRECT_SOURCE_MAX).optional(),
});
export const siteRedirectBySourceQuerySchema = z.object({
  source: siteRedirectSourceSchema,
  shareKey: shareKeySchema.optional(),
});
/** `GET …/redirect?source=`: the redirect, and the published URL it leads to. */
export const siteRedirectBySourceSchema = z.object({ redirect: siteRedirectSchema, target: z.string() });
