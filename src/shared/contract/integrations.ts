import { z } from 'zod';
import {
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_PATTERN,
  INTEGRATION_SEARCH_MAX,
  DOTS_ONLY,
  INTEGRATION_TARGETS,
  INTEGRATION_CATEGORIES,
} from './constants.js';
import { idSchema, timestampSchema, URL_MAX } from './common.js';
import { organizationSchema } from './organizations.js';
import { listSchema, pagedQuerySchema, queryBoolean } from '../pagination.js';

export {
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_PATTERN,
  INTEGRATION_SEARCH_MAX,
  INTEGRATION_TARGETS,
  INTEGRATION_CATEGORIES,
};

/**
 * Integrations (`/v1/integrations…`): what an organization publishes (with the official CLI's `gitbook publish`),
 * and its installations on organizations, spaces and sites. Shapes and limits of the published 0.143.2 contract.
 */

export const INTEGRATION_TITLE_MIN = 2;
export const INTEGRATION_TITLE_MAX = 30;
export const INTEGRATION_DESCRIPTION_MAX = 100;
export const INTEGRATION_SUMMARY_MAX = 2048;
export const INTEGRATION_PREVIEWS_MAX = 3;
export const INTEGRATION_LINKS_MAX = 5;
export const INTEGRATION_SECRETS_MAX = 20;
export const INTEGRATION_EXTERNAL_IDS_MAX = 5;
/** Decoded bytes of the icon and of each preview image (the CLI's own limits). */
export const INTEGRATION_ICON_BYTES_MAX = 250 * 1024;
export const INTEGRATION_PREVIEW_BYTES_MAX = 1024 * 1024;
/** The script the CLI bundles. */
export const INTEGRATION_SCRIPT_MAX = 5 * 1024 * 1024;

export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;
export const integrationTargetSchema = z.enum(INTEGRATION_TARGETS);
export const integrationVisibilitySchema = z.enum(INTEGRATION_VISIBILITIES);
export const integrationCategorySchema = z.enum(INTEGRATION_CATEGORIES);
export const integrationScopeSchema = z.enum(INTEGRATION_SCOPES);
export type IntegrationScope = z.infer<typeof integrationScopeSchema>;

export const integrationNameSchema = z
  .string()
  .min(1)
  .max(INTEGRATION_NAME_MAX)
  .regex(INTEGRATION_NAME_PATTERN, 'Use letters, digits, dashes, underscores and dots')
  .refine((v) => !DOTS_ONLY.test(v), 'A name cannot be dots only');

/** A header value: printable ASCII, no line breaks (it is sent as the script's Content-Security-Policy). */
const headerText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\x20-\x7e]*$/, 'Use printable ASCII characters only, without line breaks');

const httpUrl = z
  .string()
  .max(URL_MAX)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'Must be an http or https URL');

/** One configuration property: a string (with choices), number, boolean or button. */
const configurationPropertySchema = z.object({
  type: z.enum(['string', 'number', 'boolean', 'button']),
  title: z.string().max(30).optional(),
  description: z.string().max(100).optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  enum: z.array(z.string()).max(100).optional(),
  completion_url: z.string().max(URL_MAX).optional(),
  callback_url: z.string().max(URL_MAX).optional(),
  button_text: z.string().max(100).optional(),
});
export type ConfigurationProperty = z.infer<typeof configurationPropertySchema>;

/** The schema of a configuration, or a ContentKit component the integration renders itself. */
export const integrationConfigurationSchema = z.union([
  z.object({
    properties: z.record(z.string().max(100), configurationPropertySchema),
    required: z.array(z.string()).optional(),
  }),
  z.object({ componentId: z.string().max(100) }),
]);
export type IntegrationConfiguration = z.infer<typeof integrationConfigurationSchema>;

export const integrationConfigurationsSchema = z.object({
  account: integrationConfigurationSchema.optional(),
  space: integrationConfigurationSchema.optional(),
  site: integrationConfigurationSchema.optional(),
});

const blockSchema = z.object({
  id: z.string().min(1).max(100),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().max(URL_MAX).optional(),
  urlUnfurl: z.array(z.string().max(URL_MAX)).max(50).optional(),
  markdown: z.object({ codeblock: z.string().max(100), body: z.string().max(100) }).optional(),
});
const contentSourceSchema = z.object({
  id: z.string().min(1).max(100),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().max(URL_MAX).optional(),
  configuration: z.object({ componentId: z.string().max(100) }),
});
const externalLinkSchema = z.object({ url: httpUrl, label: z.string().min(1).max(100) });

/** Base64 of an image (png, jpeg, gif or webp; checked once decoded). */
const base64Schema = (maxBytes: number) =>
  z
    .string()
    .max(Math.ceil((maxBytes * 4) / 3) + 4)
    .regex(/^[A-Za-z0-9+/\r\n]*={0,2}$/, 'Must be base64');

export const publishIntegrationBodySchema = z.object({
  runtime: z.enum(['v1', 'v2']).default('v1'),
  icon: base64Schema(INTEGRATION_ICON_BYTES_MAX).optional(),
  title: z.string().min(INTEGRATION_TITLE_MIN).max(INTEGRATION_TITLE_MAX),
  description: z.string().max(INTEGRATION_DESCRIPTION_MAX),
  summary: z.string().max(INTEGRATION_SUMMARY_MAX).optional(),
  previewImages: z.array(base64Schema(INTEGRATION_PREVIEW_BYTES_MAX)).max(INTEGRATION_PREVIEWS_MAX).optional(),
  visibility: integrationVisibilitySchema.optional(),
  target: integrationTargetSchema.optional(),
  scopes: z.array(integrationScopeSchema).max(INTEGRATION_SCOPES.length),
  categories: z.array(integrationCategorySchema).max(INTEGRATION_CATEGORIES.length).optional(),
  blocks: z.array(blockSchema).max(50).optional(),
  contentSources: z.array(contentSourceSchema).max(50).optional(),
  externalLinks: z.array(externalLinkSchema).max(INTEGRATION_LINKS_MAX).optional(),
  configurations: integrationConfigurationsSchema.optional(),
  script: z.string().min(1).max(INTEGRATION_SCRIPT_MAX),
  organization: z.string().min(1).max(100),
  secrets: z
    .record(z.string().min(1).max(100), z.string().max(10_000))
    .refine((v) => Object.keys(v).length <= INTEGRATION_SECRETS_MAX, `At most ${INTEGRATION_SECRETS_MAX} secrets`)
    .optional(),
  contentSecurityPolicy: z
    .union([
      headerText(4096),
      z.record(z.string().regex(/^[a-z-]{1,40}$/, 'A directive name, such as script-src'), headerText(1024)),
    ])
    .optional(),
});
export type PublishIntegrationBody = z.infer<typeof publishIntegrationBodySchema>;

export const integrationSchema = z.object({
  object: z.literal('integration'),
  name: z.string(),
  version: z.number().int(),
  title: z.string(),
  description: z.string().optional(),
  summary: z.string().optional(),
  previewImages: z.array(z.string()),
  target: integrationTargetSchema,
  verified: z.boolean(),
  visibility: integrationVisibilitySchema,
  scopes: z.array(integrationScopeSchema),
  categories: z.array(integrationCategorySchema),
  blocks: z.array(blockSchema).optional(),
  contentSources: z.array(contentSourceSchema).optional(),
  configurations: integrationConfigurationsSchema.optional(),
  externalLinks: z.array(externalLinkSchema),
  owner: organizationSchema,
  contentSecurityPolicy: z.string().optional(),
  permissions: z.object({ admin: z.boolean(), install: z.boolean() }),
  urls: z.object({
    location: z.string(),
    app: z.string(),
    assets: z.string(),
    icon: z.string().optional(),
    publicEndpoint: z.string(),
    publicContentEndpoint: z.string(),
  }),
});
export type Integration = z.infer<typeof integrationSchema>;
export const integrationListSchema = listSchema(integrationSchema);
/** Integrations installed on an organization, space or site, each with its installation's id (an extension). */
export const installedIntegrationSchema = integrationSchema.extend({ installation: idSchema });
export type InstalledIntegration = z.infer<typeof installedIntegrationSchema>;
export const installedIntegrationListSchema = listSchema(installedIntegrationSchema);

export const listIntegrationsQuerySchema = pagedQuerySchema.extend({
  search: z.string().max(INTEGRATION_SEARCH_MAX).optional(),
  category: integrationCategorySchema.optional(),
  blockDomain: z.string().max(INTEGRATION_NAME_MAX).regex(INTEGRATION_NAME_PATTERN).optional(),
  blocks: queryBoolean.optional(),
  contentSources: queryBoolean.optional(),
  owner: idSchema.optional(),
  scope: integrationScopeSchema.optional(),
  target: integrationTargetSchema.optional(),
});
export type IntegrationFilters = Omit<z.infer<typeof listIntegrationsQuerySchema>, 'page' | 'limit'>;

export const integrationParamsSchema = z.object({ integrationName: integrationNameSchema });

// --- Installations ---

export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const;
export const installationSelectionSchema = z.enum(['all', 'selected']);
const externalIdsSchema = z.array(z.string().min(1).max(200)).max(INTEGRATION_EXTERNAL_IDS_MAX);
/** A configuration's values (checked against the integration's configuration schema). */
export const configurationValuesSchema = z.record(z.string().max(100), z.unknown());

export const installationSchema = z.object({
  id: idSchema,
  status: z.enum(INSTALLATION_STATUSES),
  space_selection: installationSelectionSchema,
  site_selection: installationSelectionSchema,
  spaces: z.number().int(),
  configuration: configurationValuesSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  externalIds: externalIdsSchema,
  target: z.object({ organization: idSchema }),
  urls: z.object({ location: z.string(), app: z.string(), publicEndpoint: z.string() }),
});
export type Installation = z.infer<typeof installationSchema>;
export const installationListSchema = listSchema(installationSchema);

export const installIntegrationBodySchema = z.object({ organization: idSchema });
export const updateInstallationBodySchema = z.object({
  externalIds: externalIdsSchema.optional(),
  configuration: configurationValuesSchema.optional(),
  space_selection: installationSelectionSchema.optional(),
  site_selection: installationSelectionSchema.optional(),
});
export type UpdateInstallationBody = z.infer<typeof updateInstallationBodySchema>;
export const installationParamsSchema = integrationParamsSchema.extend({ installationId: idSchema });
export const installationsQuerySchema = pagedQuerySchema.extend({ externalId: z.string().max(200).optional() });

/** An installation on one space or site. */
export const contentInstallationSchema = z.object({
  integration: z.string(),
  installation: idSchema,
  status: z.enum(INSTALLATION_STATUSES),
  configuration: configurationValuesSchema,
  externalIds: externalIdsSchema,
  urls: z.object({ location: z.string(), publicEndpoint: z.string() }),
  space: idSchema.optional(),
  site: idSchema.optional(),
});
export type ContentInstallation = z.infer<typeof contentInstallationSchema>;
export const contentInstallationListSchema = listSchema(contentInstallationSchema);
export const installOnSpaceBodySchema = z.object({ space: idSchema });
export const installOnSiteBodySchema = z.object({ siteId: idSchema });
export const updateContentInstallationBodySchema = z.object({
  externalIds: externalIdsSchema.optional(),
  configuration: configurationValuesSchema.optional(),
});
export const spaceInstallationParamsSchema = installationParamsSchema.extend({ spaceId: idSchema });
export const siteInstallationParamsSchema = installationParamsSchema.extend({ siteId: idSchema });

// --- Events ---

export const integrationEventSchema = z.object({
  id: idSchema,
  integrationId: z.string(),
  installationId: z.string().optional(),
  createdAt: timestampSchema,
  payload: z.object({ eventId: z.string(), type: z.string() }).catchall(z.unknown()),
  status: z.enum(['success', 'failed']),
  /** Extensions: how long the script took the last time it was sent, and how many times it was sent. */
  durationMs: z.number().int().nonnegative().optional(),
  attempts: z.number().int().nonnegative().optional(),
});
export type IntegrationEvent = z.infer<typeof integrationEventSchema>;
/** One event with what the integration's script logged while handling it, and why it failed. */
export const integrationEventWithTraceSchema = z.object({
  event: integrationEventSchema,
  trace: z.object({ logs: z.array(z.object({ level: z.string(), message: z.string() })) }),
});
export const integrationEventListSchema = listSchema(integrationEventSchema);
export const integrationEventParamsSchema = integrationParamsSchema.extend({ eventId: idSchema });
export const devModeBodySchema = z.object({
  tunnelUrl: z.string().min(1).max(256),
  all: z.boolean().default(false),
});

/** A task's payload, as JSON, at most (`POST /v1/integrations/{name}/tasks`). */
export const INTEGRATION_TASK_BYTES_MAX = 64 * 1024;
/** Tasks and other events of one integration in one organization waiting to be delivered, at most. */
export const INTEGRATION_EVENTS_PENDING_MAX = 1000;
export const queueTaskBodySchema = z.object({
  task: z.record(z.string(), z.unknown()),
  /** Seconds to wait before running it (GitBook: 0 to 86,400). */
  schedule: z.number().int().min(0).max(86_400).optional(),
});
export type QueueTaskBody = z.infer<typeof queueTaskBodySchema>;

const contentKitTheme = z.enum(['dark', 'light']).default('light');
/** Where a ContentKit component is rendered (the contract's ContentKitContext). */
export const contentKitContextSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('document'), spaceId: idSchema, editable: z.boolean(), theme: contentKitTheme }),
  z.object({ type: z.literal('configuration_account'), organizationId: idSchema, theme: contentKitTheme }),
  z.object({ type: z.literal('configuration_space'), spaceId: idSchema, theme: contentKitTheme }),
  z.object({ type: z.literal('configuration_site'), siteId: idSchema, theme: contentKitTheme }),
]);
export type ContentKitContext = z.infer<typeof contentKitContextSchema>;
/** A render's body, as JSON, at most. */
export const RENDER_BODY_BYTES_MAX = 256 * 1024;
export const renderIntegrationUiBodySchema = z.object({
  componentId: z.string().min(1).max(100),
  props: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()).optional(),
  context: contentKitContextSchema,
  action: z.record(z.string(), z.unknown()).optional(),
});
export type RenderIntegrationUiBody = z.infer<typeof renderIntegrationUiBodySchema>;
/**
 * What a reader of a published site did in an integration block (an extension of the contract: `POST` to the page's
 * address, site-script.js): the block, its props and state, the action.
 */
export const siteBlockActionBodySchema = z.object({
  integration: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'an integration name'),
  block: z.string().min(1).max(100),
  props: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()).optional(),
  /** None: the component's first render (a modal the block opened). */
  action: z.looseObject({ action: z.string().min(1).max(200) }).optional(),
});
/** A reader's feedback on a page of a published site (an extension of the contract: `POST …/~feedback/{page}`). */
export const pageFeedbackBodySchema = z.object({
  rating: z.enum(['bad', 'ok', 'good']),
  comment: z.string().max(512).optional(),
});

/** The block rendered again: its HTML, its state and props. */
export const siteBlockActionResultSchema = z.object({
  html: z.string(),
  state: z.unknown(),
  props: z.unknown(),
});

/** What the script rendered (ContentKitRenderOutput): an element with its state and props, or `complete`. */
export const contentKitRenderOutputSchema = z.looseObject({
  type: z.enum(['element', 'complete']).optional(),
});
