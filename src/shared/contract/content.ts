import { z } from 'zod';
import { gitFileRefSchema, gitSyncCommitSchema, type GitFileRef } from './git-sync.js';
import { EMOJI_MAX, idSchema, timestampSchema, userSchema } from './common.js';
import { ID_MAX, PAGE_MARKDOWN_MAX, URL_MAX } from './constants.js';
import { listSchema, queryBoolean } from '../pagination.js';
import { changeRequestSchema, semanticChangesSchema } from './change-requests.js';
import { tooDeeplyNested, MARKDOWN_DEPTH_MESSAGE } from '../markdown-limits.js';

export const PAGE_TITLE_MAX = 100;
export const PAGE_SLUG_MAX = 100;
export const PAGE_DESCRIPTION_MAX = 500;
/** Characters of a page icon's name (the contract's `Icon`). */
export const PAGE_ICON_MAX = 50;
export { PAGE_MARKDOWN_MAX };
export const FILE_NAME_MAX = 256;
/** Largest file accepted inline (base64) or fetched from a URL. */
/** Bytes of a file given inline (base64 in a content edit's JSON, or by URL). */
export const FILE_MAX_BYTES = 1024 * 1024;
/** Bytes of a file uploaded as a request's body (`…/content/files`) or brought by an import, by default. */
export const FILE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

export const PAGE_TYPES = ['document', 'group', 'link'] as const;
export const pageTypeSchema = z.enum(PAGE_TYPES);
export type PageType = z.infer<typeof pageTypeSchema>;

/**
 * A page body as GitBook's document model (`JSONDocument` of the 0.143.2 contract; see shared/document): blocks,
 * inlines and text, each top-level block keyed by the page's block id (diffs, merges, comment anchors). Checked
 * against the contract's JSON schema by the tests; described loosely here, so nothing is stripped on the way out.
 */
export const documentNodeSchema = z.looseObject({ object: z.string() });
export const pageDocumentSchema = z.looseObject({
  object: z.literal('document'),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(documentNodeSchema),
});
export type PageDocument = z.infer<typeof pageDocumentSchema>;

/**
 * A reusable content of a revision (0.143.2 `RevisionReusableContent`): `document` names its body (a content hash;
 * absent when empty). `slug` (extension) is what `{% include %}` names it by.
 */
export const revisionReusableContentSchema = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  document: z.string().optional(),
  /** Its file in the synced repository (Git Sync); left out with `?metadata=false`. */
  git: gitFileRefSchema.optional(),
});
export type RevisionReusableContent = z.infer<typeof revisionReusableContentSchema>;

/** How a page is laid out when published: its width and what it shows besides its body. */
export const pageLayoutSchema = z.object({
  width: z.enum(['default', 'wide']),
  cover: z.boolean(),
  coverSize: z.enum(['hero', 'full']),
  title: z.boolean(),
  description: z.boolean(),
  tableOfContents: z.boolean(),
  outline: z.boolean(),
  pagination: z.boolean(),
  metadata: z.boolean(),
});
export type PageLayout = z.infer<typeof pageLayoutSchema>;
export const DEFAULT_PAGE_LAYOUT: PageLayout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

/** A page's cover as the content edits give it. */
export const pageCoverSchema = z.object({
  file: z.string().min(1).max(ID_MAX),
  yPos: z.number().min(0).max(100_000).optional(),
});
export type PageCover = z.infer<typeof pageCoverSchema>;

/** The options of `layout` that differ from the defaults (in DEFAULT_PAGE_LAYOUT's order), or undefined if none. */
export function layoutOverrides(layout: Partial<PageLayout>): Partial<PageLayout> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_PAGE_LAYOUT) as Array<keyof PageLayout>) {
    if (layout[key] !== undefined && layout[key] !== DEFAULT_PAGE_LAYOUT[key]) out[key] = layout[key];
  }
  return Object.keys(out).length ? (out as Partial<PageLayout>) : undefined;
}

export interface RevisionPage {
  id: string;
  title: string;
  kind: 'sheet' | 'group' | 'link';
  type: PageType;
  slug?: string;
  path?: string;
  emoji?: string;
  /** An icon's name (GitBook's, from Font Awesome: `rocket`), as the page's file or a client set it. */
  icon?: string;
  description?: string;
  /** Left out of the published site's navigation, still reachable at its address (only written when true). */
  hidden?: boolean;
  /** Left out of the published site's search (only written when true). */
  noIndex?: boolean;
  /** Search engines are asked not to index it (only written when true). */
  noRobotsIndex?: boolean;
  createdAt?: string;
  updatedAt?: string;
  urls?: { app: string };
  layout?: PageLayout;
  /** An image shown above the page when published (`layout.cover`), a file of the revision. */
  cover?: { ref: { kind: 'file'; file: string }; yPos: number };
  /** Document pages: the id of their body's document (`GET /v1/spaces/{spaceId}/documents/{documentId}`). */
  documentId?: string;
  href?: string;
  target?: { kind: 'url'; url: string };
  markdown?: string;
  document?: PageDocument;
  /** Its file in the synced repository (Git Sync); left out with `?metadata=false`. */
  git?: GitFileRef;
  pages?: RevisionPage[];
}

export const revisionPageSchema: z.ZodType<RevisionPage> = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(['sheet', 'group', 'link']),
  type: pageTypeSchema,
  slug: z.string().optional(),
  path: z.string().optional(),
  emoji: z.string().optional(),
  icon: z.string().optional(),
  description: z.string().optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
  urls: z.object({ app: z.string() }).optional(),
  layout: pageLayoutSchema.optional(),
  cover: z.object({ ref: z.object({ kind: z.literal('file'), file: z.string() }), yPos: z.number() }).optional(),
  documentId: z.string().optional(),
  href: z.string().optional(),
  target: z.object({ kind: z.literal('url'), url: z.string() }).optional(),
  markdown: z.string().optional(),
  document: pageDocumentSchema.optional(),
  git: gitFileRefSchema.optional(),
  get pages() {
    return z.array(revisionPageSchema).optional();
  },
});

export const revisionFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  downloadURL: z.string(),
  size: z.number().int(),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
  /** Its file in the synced repository (Git Sync); left out with `?metadata=false`. */
  git: gitFileRefSchema.optional(),
});
export type RevisionFile = z.infer<typeof revisionFileSchema>;
export const revisionFileListSchema = listSchema(revisionFileSchema);

export const REVISION_TYPES = ['edits', 'merge', 'rollback', 'update'] as const;

export const revisionSchema = z.object({
  object: z.literal('revision'),
  id: z.string(),
  type: z.enum(REVISION_TYPES),
  parents: z.array(z.string()),
  pages: z.array(revisionPageSchema),
  files: z.array(revisionFileSchema),
  reusableContents: z.array(revisionReusableContentSchema),
  tags: z.array(z.never()),
  variables: z.record(z.string(), z.string()),
  createdAt: timestampSchema,
  urls: z.object({ app: z.string() }),
  /** For merge revisions: the change request that was merged (its id). */
  /** A merge revision: the change request it merged, complete (contract: type-specific required field). */
  mergedFrom: changeRequestSchema.optional(),
  /** The Git commit the revision came from or went to (Git Sync); left out with `?metadata=false`. */
  git: gitSyncCommitSchema.optional(),
});
export type Revision = z.infer<typeof revisionSchema>;

/**
 * One revision of a space's history (extension: `GET /v1/spaces/{spaceId}/revisions`, newest first): the space's
 * first revision and every merge, with who made it and the change request a merge brought in.
 */
export const revisionSummarySchema = z.object({
  object: z.literal('revision-summary'),
  id: z.string(),
  type: z.enum(REVISION_TYPES),
  parents: z.array(z.string()),
  createdAt: timestampSchema,
  /** Absent when the account that made it no longer exists. */
  createdBy: userSchema.optional(),
  /** A merge revision: the change request it merged. */
  changeRequest: z.object({ id: z.string(), number: z.number().int(), subject: z.string() }).optional(),
  /** Whether this is the space's current revision. */
  current: z.boolean(),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;
export const revisionSummaryListSchema = listSchema(revisionSummarySchema);

/** `limit` of `GET …/revisions/{revisionId}/changes` (changes listed; `more` counts the others). */
export const revisionChangesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  metadata: queryBoolean.optional(),
  computed: queryBoolean.optional(),
});
/** What a revision changed against its first parent; `more` counts the changes left out by `limit`. */
export const revisionChangesSchema = semanticChangesSchema.extend({ more: z.number().int().optional() });

export const revisionPagesSchema = z.object({ pages: z.array(revisionPageSchema) });

/** `metadata=false` leaves out the revision's Git commit; `computed` is accepted for compatibility (no computed content). */
export const contentQuerySchema = z.object({
  metadata: queryBoolean.optional(),
  computed: queryBoolean.optional(),
});

export const PAGE_FORMATS = ['document', 'markdown'] as const;
export const pageQuerySchema = contentQuerySchema.extend({
  format: z.enum(PAGE_FORMATS).default('document'),
  /** Accepted for compatibility: there are no expressions to evaluate. */
  evaluated: z.enum(['true', 'false', '1', '0', 'deterministic-only']).optional(),
});

/** `…/page/{pageId}/document`: `evaluated` and `dereferenced` accepted (nothing here to evaluate or dereference). */
export const pageDocumentQuerySchema = contentQuerySchema.extend({
  evaluated: z.enum(['true', 'false', '1', '0', 'deterministic-only']).optional(),
  dereferenced: queryBoolean.optional(),
});

export const pageParamsSchema = z.object({ pageId: idSchema });
export const documentParamsSchema = z.object({ documentId: z.string().min(1).max(128) });
export const documentQuerySchema = z.object({ schema: z.enum(['current', 'next']).optional() });

/** `…/path/{pagePath}`: a page's path, slugs joined by `/` (at most 100 levels of slugs). */
export const pagePathParamsSchema = z.object({ '*': z.string().min(1, 'pagePath is required').max(10_000) });

/** `…/reusable-contents/{id}`: with `format=markdown` (extension), its body as markdown too. */
export const reusableContentQuerySchema = contentQuerySchema.extend({
  format: z.enum(['markdown']).optional(),
});
export const reusableContentSchema = revisionReusableContentSchema.extend({ markdown: z.string().optional() });
export type ReusableContent = z.infer<typeof reusableContentSchema>;
/** `…/reusable-contents` (extension): a revision's reusable contents, in the order they were made. */
export const reusableContentListSchema = listSchema(revisionReusableContentSchema);
export const reusableContentParamsSchema = z.object({ reusableContentId: idSchema });

export const fileParamsSchema = z.object({ fileId: idSchema });
export const revisionParamsSchema = z.object({ revisionId: idSchema });

// Editing a change request's content (POST .../change-requests/{id}/content)

export const CHANGES_MAX = 50;
export const FILES_PER_OPERATION_MAX = 20;

/** A page slug: lower-case words joined by dashes (empty for none). */
export const pageSlugSchema = z
  .string()
  .max(PAGE_SLUG_MAX)
  .regex(/^([a-z0-9]+(?:-[a-z0-9]+)*)?$/, 'Lower-case letters, digits and dashes, e.g. getting-started');

/** Where a link page points: an http(s) URL or a path. Other schemes (javascript:, data:, ...) are refused. */
export const pageHrefSchema = z
  .string()
  .trim()
  .min(1)
  .max(URL_MAX)
  .refine((v) => /^https?:\/\/\S+$/i.test(v) || !/^[a-z][a-z0-9+.-]*:/i.test(v), 'An http(s) URL or a path');

const pageMetadataShape = {
  title: z.string().trim().min(1, 'Title is required').max(PAGE_TITLE_MAX).optional(),
  slug: pageSlugSchema.optional(),
  /** "" removes the emoji. */
  emoji: z.string().max(EMOJI_MAX).optional(),
  /** An icon's name (Font Awesome's, as GitBook names them: `rocket`, `money-bill-transfer`); "" removes it. */
  icon: z
    .string()
    .max(PAGE_ICON_MAX)
    .regex(/^([a-z0-9]+(-[a-z0-9]+)*)?$/, 'An icon name such as rocket or money-bill-transfer')
    .optional(),
  description: z.string().max(PAGE_DESCRIPTION_MAX).optional(),
  /** Left out of the published site's navigation (the page stays reachable at its address). */
  hidden: z.boolean().optional(),
  /** Left out of the published site's search. */
  noIndex: z.boolean().optional(),
  /** Search engines asked not to index it (robots `noindex`, left out of the sitemap). */
  noRobotsIndex: z.boolean().optional(),
  /** Its layout when published: the options given change, the others stay (document pages). */
  layout: pageLayoutSchema.partial().optional(),
  /** Its cover: an image file of the change request, and where it is cut (`yPos`, pixels from its top); null: none. */
  cover: pageCoverSchema.nullable().optional(),
};

/** Nodes a document given to the API may hold at its top level: a page's block limit. */
export const DOCUMENT_NODES_MAX = 10_000;

/**
 * A page body: `{markdown}`, `{document}` (GitBook's JSON document, written as markdown: shared/document), or `{}`
 * for none. Every top-level block gets a stable id.
 */
export const pageBodySchema = z
  .object({
    markdown: z
      .string()
      .max(PAGE_MARKDOWN_MAX)
      .refine((v) => !tooDeeplyNested(v), MARKDOWN_DEPTH_MESSAGE)
      .optional(),
    document: z
      .looseObject({
        object: z.literal('document'),
        data: z.record(z.string(), z.unknown()).optional(),
        nodes: z.array(z.looseObject({ object: z.string() })).max(DOCUMENT_NODES_MAX),
      })
      .optional(),
  })
  .strict()
  .refine((v) => v.markdown === undefined || v.document === undefined, 'Give markdown or a document, not both');

export const insertPageOperationSchema = z.object({
  operation: z.literal('insert_page'),
  type: pageTypeSchema.default('document'),
  document: pageBodySchema.optional(),
  /** Link pages: where they point (an http(s) URL or a path). */
  href: pageHrefSchema.optional(),
  into: z.string().min(1).max(ID_MAX).optional(),
  at: z.number().int().min(0).optional(),
  /** A name for the new page that later operations of the same batch may use instead of its id. */
  ref: z.string().min(1).max(ID_MAX).optional(),
  ...pageMetadataShape,
});

export const updatePageOperationSchema = z.object({
  operation: z.literal('update_page'),
  page: z.string().min(1).max(ID_MAX),
  document: pageBodySchema.optional(),
  href: pageHrefSchema.optional(),
  /** New parent page; `null` moves it to the top level. */
  into: z.string().min(1).max(ID_MAX).nullable().optional(),
  at: z.number().int().min(0).optional(),
  ...pageMetadataShape,
});

export const deletePageOperationSchema = z.object({
  operation: z.literal('delete_page'),
  page: z.string().min(1).max(ID_MAX),
});

export const revertPageOperationSchema = z.object({
  operation: z.literal('revert_page'),
  page: z.string().min(1).max(ID_MAX),
  /** The revision to take the page from; the change request's base by default. */
  revision: z.string().min(1).max(ID_MAX).optional(),
  /** Only these blocks of the page. */
  block: z.array(z.string().min(1).max(ID_MAX)).min(1).max(1000).optional(),
});

export const insertFilesOperationSchema = z.object({
  operation: z.literal('insert_files'),
  files: z
    .array(
      z.object({
        name: z.string().min(1).max(FILE_NAME_MAX),
        ref: z.string().min(1).max(ID_MAX).optional(),
        contentType: z
          .string()
          .min(1)
          .max(255)
          .regex(/^[\w.+-]+\/[\w.+-]+$/, 'A media type such as image/png')
          .optional(),
        base64: z
          .string()
          .max(Math.ceil((FILE_MAX_BYTES * 4) / 3) + 4)
          .optional(),
        url: z
          .url({ protocol: /^https?$/ })
          .max(URL_MAX)
          .optional(),
      }),
    )
    .min(1)
    .max(FILES_PER_OPERATION_MAX),
});

/**
 * Reusable content (extension: GitBook edits it in its editor only). A body included in pages by
 * `{% include "<slug>.md" %}` (GitBook's exports name `.gitbook/includes/<slug>.md`); its slug is made from its title
 * unless given, unique among the space's reusable contents.
 */
export const insertReusableContentOperationSchema = z.object({
  operation: z.literal('insert_reusable_content'),
  title: z.string().trim().min(1, 'Title is required').max(PAGE_TITLE_MAX),
  slug: pageSlugSchema.optional(),
  document: pageBodySchema.optional(),
  /** A name for it that later operations of the same batch may use instead of its id. */
  ref: z.string().min(1).max(ID_MAX).optional(),
});
export const updateReusableContentOperationSchema = z.object({
  operation: z.literal('update_reusable_content'),
  reusableContent: z.string().min(1).max(ID_MAX),
  title: z.string().trim().min(1, 'Title is required').max(PAGE_TITLE_MAX).optional(),
  slug: pageSlugSchema.optional(),
  document: pageBodySchema.optional(),
});
export const deleteReusableContentOperationSchema = z.object({
  operation: z.literal('delete_reusable_content'),
  reusableContent: z.string().min(1).max(ID_MAX),
});

export const contentChangeSchema = z.discriminatedUnion('operation', [
  insertPageOperationSchema,
  updatePageOperationSchema,
  deletePageOperationSchema,
  revertPageOperationSchema,
  insertFilesOperationSchema,
  insertReusableContentOperationSchema,
  updateReusableContentOperationSchema,
  deleteReusableContentOperationSchema,
]);
export type ContentChange = z.infer<typeof contentChangeSchema>;

/**
 * Largest body of a content edit (`POST …/change-requests/{id}/content`): several base64 files or long pages in
 * one batch. Every other endpoint takes at most 1 MiB.
 */
export const CONTENT_EDIT_BODY_MAX_BYTES = 8 * 1024 * 1024;

/** Files given by URL in one request: each is a download the server makes. */
export const FILE_URLS_PER_REQUEST_MAX = 20;

export const updateContentBodySchema = z.object({
  changes: z
    .array(contentChangeSchema)
    .min(1)
    .max(CHANGES_MAX)
    .refine(
      (changes) =>
        changes.reduce(
          (n, c) => n + (c.operation === 'insert_files' ? c.files.filter((f) => f.url !== undefined).length : 0),
          0,
        ) <= FILE_URLS_PER_REQUEST_MAX,
      `At most ${FILE_URLS_PER_REQUEST_MAX} files given by URL in one request`,
    ),
});
export type UpdateContentBody = z.infer<typeof updateContentBodySchema>;

export const updateContentQuerySchema = z.object({ compat: queryBoolean.default(true) });

export const contentChangeResultSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('created_page'),
    ref: z.string().optional(),
    page: z.object({ id: z.string(), urls: z.object({ location: z.string() }) }),
  }),
  z.object({
    type: z.literal('updated_page'),
    page: z.object({ id: z.string(), urls: z.object({ location: z.string() }) }),
  }),
  z.object({ type: z.literal('deleted_page'), page: z.string() }),
  z.object({
    type: z.literal('created_reusable_content'),
    ref: z.string().optional(),
    reusableContent: z.object({ id: z.string() }),
  }),
  z.object({ type: z.literal('updated_reusable_content'), reusableContent: z.object({ id: z.string() }) }),
  z.object({ type: z.literal('deleted_reusable_content'), reusableContent: z.string() }),
]);
export type ContentChangeResult = z.infer<typeof contentChangeResultSchema>;
