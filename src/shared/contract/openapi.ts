import { z } from 'zod';
import { OPENAPI_SLUG_MAX, OPENAPI_SLUG_PATTERN } from './constants.js';
import { idSchema, timestampSchema, URL_MAX } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';

export { OPENAPI_SLUG_MAX, OPENAPI_SLUG_PATTERN };

/**
 * Hosted OpenAPI specifications of an organization (`/v1/orgs/{organizationId}/openapi…`), shapes of the
 * published 0.143.2 contract, and the extensions the console and the renderers use: the operations of a version
 * as reference sections, and the comparison of two versions.
 */

export const OPENAPI_URL_MAX = URL_MAX;
/** A specification's text, given inline or fetched from its URL (bytes of UTF-8). */
export const OPENAPI_TEXT_MAX = 10 * 1024 * 1024;

export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export const openApiProcessingStateSchema = z.enum(OPENAPI_PROCESSING_STATES);
export type OpenApiProcessingState = z.infer<typeof openApiProcessingStateSchema>;

export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export const openApiErrorCodeSchema = z.enum(OPENAPI_ERROR_CODES);
export type OpenApiErrorCode = z.infer<typeof openApiErrorCodeSchema>;

export const OPENAPI_VISIBILITIES = ['private', 'public'] as const;
export const openApiVisibilitySchema = z.enum(OPENAPI_VISIBILITIES);
export type OpenApiVisibility = z.infer<typeof openApiVisibilitySchema>;

export const openApiSlugSchema = z
  .string()
  .min(1)
  .max(OPENAPI_SLUG_MAX)
  .regex(
    OPENAPI_SLUG_PATTERN,
    'Use lowercase letters, digits and single dashes between them (for example "petstore-v2")',
  );

const httpUrlSchema = z
  .string()
  .max(OPENAPI_URL_MAX)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'Must be an http or https URL');

/** `{url}` or `{text}`: where the specification comes from. */
export const openApiSourceSchema = z.union([
  z.object({ url: httpUrlSchema }).strict(),
  z.object({ text: z.string().min(1).max(OPENAPI_TEXT_MAX) }).strict(),
]);
export type OpenApiSource = z.infer<typeof openApiSourceSchema>;

/** A problem found while processing: the message says what and where. */
export const openApiProcessErrorSchema = z.object({ message: z.string(), code: z.string().optional() });

export const openApiSpecSchema = z.object({
  object: z.literal('openapi-spec'),
  id: idSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  slug: openApiSlugSchema,
  sourceURL: z.string().optional(),
  processingState: openApiProcessingStateSchema,
  visibility: openApiVisibilitySchema,
  lastVersion: z.string().optional(),
  lastProcessedAt: timestampSchema.optional(),
  lastProcessErrorCode: openApiErrorCodeSchema.optional(),
  lastProcessedErrors: z.array(openApiProcessErrorSchema).optional(),
  lastProcessedErrorCount: z.number().int(),
  permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
});
export type OpenApiSpec = z.infer<typeof openApiSpecSchema>;
export const openApiSpecListSchema = listSchema(openApiSpecSchema);

export const openApiVersionSchema = z.object({
  object: z.literal('openapi-spec-version'),
  id: idSchema,
  createdAt: timestampSchema,
  url: z.string(),
  urls: z.object({ location: z.string() }),
});
export type OpenApiVersion = z.infer<typeof openApiVersionSchema>;
export const openApiVersionListSchema = listSchema(openApiVersionSchema);

/** A version's content: its files by name (one, the document, parsed) and where its text is. */
export const openApiContentSchema = z.object({
  filesystem: z.record(z.string(), z.unknown()),
  url: z.string(),
});

export const createOpenApiBodySchema = z.object({ slug: openApiSlugSchema, source: openApiSourceSchema });
export type CreateOpenApiBody = z.infer<typeof createOpenApiBodySchema>;
export const putOpenApiBodySchema = z.object({ source: openApiSourceSchema });
export const patchOpenApiBodySchema = z.object({ visibility: openApiVisibilitySchema });

export const openApiParamsSchema = organizationParamsSchema.extend({ specSlug: openApiSlugSchema });
export const openApiVersionParamsSchema = openApiParamsSchema.extend({ versionId: idSchema });

// --- Extensions: operations of a version, rendered as reference sections, and comparisons ---

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const httpMethodSchema = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof httpMethodSchema>;

/**
 * A schema as shown in a reference: its type, description, enum, properties (nested), items, and what was cut
 * (a schema that refers to itself is shown once, then by name).
 */
export interface SchemaView {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  enum?: string[];
  required?: boolean;
  nullable?: boolean;
  deprecated?: boolean;
  example?: string;
  default?: string;
  /** The component's name, when the schema is a named one. */
  ref?: string;
  /** True where nesting was cut (recursion or depth). */
  truncated?: boolean;
  properties?: Array<{ name: string; schema: SchemaView }>;
  items?: SchemaView;
  /** oneOf / anyOf / allOf alternatives, when they are not merged. */
  variants?: { kind: 'oneOf' | 'anyOf'; options: SchemaView[] };
}
export const schemaViewSchema: z.ZodType<SchemaView> = z.lazy(() =>
  z.object({
    type: z.string().optional(),
    format: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    enum: z.array(z.string()).optional(),
    required: z.boolean().optional(),
    nullable: z.boolean().optional(),
    deprecated: z.boolean().optional(),
    example: z.string().optional(),
    default: z.string().optional(),
    ref: z.string().optional(),
    truncated: z.boolean().optional(),
    properties: z.array(z.object({ name: z.string(), schema: schemaViewSchema })).optional(),
    items: schemaViewSchema.optional(),
    variants: z.object({ kind: z.enum(['oneOf', 'anyOf']), options: z.array(schemaViewSchema) }).optional(),
  }),
);

export const operationParameterSchema = z.object({
  name: z.string(),
  in: z.string(),
  required: z.boolean(),
  deprecated: z.boolean().optional(),
  description: z.string().optional(),
  schema: schemaViewSchema.optional(),
});

/** One operation, ready to render: what a page's `{% openapi-operation %}` block shows. */
export const operationViewSchema = z.object({
  method: httpMethodSchema,
  path: z.string(),
  operationId: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  deprecated: z.boolean().optional(),
  tags: z.array(z.string()),
  servers: z.array(z.string()),
  security: z.array(z.string()),
  parameters: z.array(operationParameterSchema),
  requestBody: z
    .object({
      required: z.boolean(),
      description: z.string().optional(),
      contentType: z.string(),
      schema: schemaViewSchema.optional(),
    })
    .optional(),
  responses: z.array(
    z.object({
      status: z.string(),
      description: z.string().optional(),
      contentType: z.string().optional(),
      schema: schemaViewSchema.optional(),
    }),
  ),
  /** A curl command calling the operation on its first server, with example values. */
  example: z.string(),
});
export type OperationView = z.infer<typeof operationViewSchema>;

/** The API's title and version, and every operation, in document order. */
export const openApiReferenceSchema = z.object({
  title: z.string(),
  version: z.string(),
  description: z.string().optional(),
  specification: z.string(),
  operations: z.array(operationViewSchema),
});
export type OpenApiReference = z.infer<typeof openApiReferenceSchema>;

/**
 * A page of a version's reference: the operations matching `q` (method, path, summary or operation id), `limit`
 * at a time from the offset `page`; `count` is how many match in all. Large specifications have thousands.
 */
export const REFERENCE_LIMIT_DEFAULT = 50;
export const REFERENCE_LIMIT_MAX = 200;
export const referenceQuerySchema = z.object({
  q: z.string().max(200).optional(),
  page: z.coerce.number().int().min(0).max(1_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(REFERENCE_LIMIT_MAX).default(REFERENCE_LIMIT_DEFAULT),
});
export const openApiReferencePageSchema = openApiReferenceSchema.extend({
  count: z.number().int(),
  total: z.number().int(),
  next: z.object({ page: z.string() }).optional(),
});
export type OpenApiReferencePage = z.infer<typeof openApiReferencePageSchema>;

export const operationQuerySchema = z.object({ path: z.string().min(1).max(2048), method: httpMethodSchema });

/** One difference between two versions of an operation; `breaking` when clients of the older one may fail. */
export const operationChangeSchema = z.object({ breaking: z.boolean(), message: z.string() });
export const openApiComparisonSchema = z.object({
  from: z.string(),
  to: z.string(),
  added: z.array(z.object({ method: httpMethodSchema, path: z.string(), summary: z.string().optional() })),
  removed: z.array(z.object({ method: httpMethodSchema, path: z.string(), summary: z.string().optional() })),
  changed: z.array(
    z.object({
      method: httpMethodSchema,
      path: z.string(),
      summary: z.string().optional(),
      changes: z.array(operationChangeSchema),
    }),
  ),
  breaking: z.number().int(),
});
export type OpenApiComparison = z.infer<typeof openApiComparisonSchema>;
export const compareQuerySchema = z.object({ from: idSchema, to: idSchema });
