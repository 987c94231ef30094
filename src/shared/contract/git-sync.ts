import { z } from 'zod';
import { URL_MAX, timestampSchema } from './common.js';
import { listSchema } from '../pagination.js';

/**
 * Git Sync: a space mirrors a folder of a Git repository, in GitBook's repository format. The three operations
 * of the contract (`POST …/git/import`, `POST …/git/export`, `GET …/git/info`, @gitbook/api 0.143.2) and, as an
 * extension, the space's sync settings (`…/git/sync`, space admins) and its runs (`…/git/runs`).
 */

/** A branch name as Git takes one (no `..`, no control characters, no leading `-`, no trailing `.lock`). */
export const GIT_BRANCH_MAX = 255;
export const gitBranchSchema = z
  .string()
  .trim()
  .min(1, 'Branch is required')
  .max(GIT_BRANCH_MAX)
  .refine(
    (b) =>
      ![...b].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127) &&
      !/(^[-/.])|(\.\.)|[\s~^:?*[\\]|(\/\/)|(\.lock$)|(\/$)|(@\{)|(\.$)/.test(b),
    'Not a branch name Git accepts',
  );
/** A ref as the contract gives one: `refs/heads/<branch>`. */
export const gitRefSchema = z
  .string()
  .max(GIT_BRANCH_MAX + 11)
  .regex(/^refs\/heads\/.+$/, 'A ref such as refs/heads/main');
/** A folder of the repository, `/`-separated, no `..`. */
export const GIT_ROOT_MAX = 512;
export const gitRootSchema = z
  .string()
  .trim()
  .max(GIT_ROOT_MAX)
  .transform((r) => r.replace(/^\.?\/+|\/+$/g, '').replace(/^\.$/, ''))
  .refine((r) => !r.split('/').some((s) => s === '..' || s === '.git'), 'A folder inside the repository');

/** Where a page, file or reusable content is in the synced repository (its path and blob, as of the last sync). */
export const gitFileRefSchema = z.object({ oid: z.string(), path: z.string() });
export type GitFileRef = z.infer<typeof gitFileRefSchema>;

const gitRepositoryUrlSchema = z
  .url({ protocol: /^https?$/, error: 'An https:// URL of a Git repository' })
  .max(URL_MAX);

/** A web page of the repository (its tree URL): shown to readers as a link, so http(s) only. */
const webUrlSchema = z.url({ protocol: /^https?$/, error: 'An https:// URL' }).max(URL_MAX);

const updateSpaceGitInfoSchema = z.object({
  provider: z.enum(['github', 'gitlab']).optional(),
  url: webUrlSchema.optional(),
});

const gitOperationShape = {
  /** The repository; it may carry credentials (`https://user:token@host/…`). */
  url: gitRepositoryUrlSchema,
  ref: gitRefSchema,
  repoCacheID: z.string().max(256).optional(),
  repoTreeURL: webUrlSchema.optional(),
  repoCommitURL: webUrlSchema.optional(),
  repoProjectDirectory: gitRootSchema.optional(),
  timestamp: timestampSchema.optional(),
  force: z.boolean().optional(),
  gitInfo: updateSpaceGitInfoSchema.optional(),
};

export const importGitRepositorySchema = z.object({
  ...gitOperationShape,
  standalone: z.boolean().optional(),
});
export type ImportGitRepository = z.infer<typeof importGitRepositorySchema>;

export const exportToGitRepositorySchema = z.object({
  ...gitOperationShape,
  commitMessage: z.string().min(1, 'Commit message is required').max(10_000),
});
export type ExportToGitRepository = z.infer<typeof exportToGitRepositorySchema>;

/** `GET …/git/info` (0.143.2 GitSyncState). */
export const gitSyncStateSchema = z.object({
  repoName: z.string().optional(),
  installationProvider: z.enum(['github', 'gitlab', 'github-legacy']).optional(),
  integration: z.string().optional(),
  url: z.string().optional(),
  updatedAt: timestampSchema.optional(),
});
export type GitSyncState = z.infer<typeof gitSyncStateSchema>;

/**
 * `revision.git`: api.md names the flag `createdByService`, the 0.143.2 spec (and GitBook's client)
 * `createdByGitBook` (required there): both are served, with the same value.
 */
export const gitSyncCommitSchema = z.object({
  oid: z.string(),
  message: z.string(),
  /** The commit was made by this server's export. */
  createdByService: z.boolean(),
  createdByGitBook: z.boolean(),
  url: z.string().optional(),
  ref: z.string().optional(),
});
/** `page.git`, `file.git`, `reusableContent.git` (0.143.2 GitSyncBlob). */
export const gitSyncBlobSchema = z.object({ oid: z.string(), path: z.string() });

export const GIT_SYNC_DIRECTIONS = ['import', 'two-way'] as const;
export const gitSyncDirectionSchema = z.enum(GIT_SYNC_DIRECTIONS);
export type GitSyncDirection = z.infer<typeof gitSyncDirectionSchema>;
export const GIT_POLL_MINUTES_MAX = 24 * 60;
export const GIT_TOKEN_MAX = 1024;

/** `PUT …/git/sync`: connects the space to a repository (or changes how). */
export const gitSyncSettingsBodySchema = z.object({
  url: gitRepositoryUrlSchema,
  branch: gitBranchSchema,
  root: gitRootSchema.default(''),
  direction: gitSyncDirectionSchema.default('import'),
  /** The access token; absent keeps the stored one, `null` removes it (a public repository needs none). */
  token: z.string().trim().min(1).max(GIT_TOKEN_MAX).nullable().optional(),
  authorName: z.string().trim().max(255).optional(),
  authorEmail: z.union([z.email(), z.literal('')]).optional(),
  /** Minutes between two looks at the branch when no webhook tells; 0: never. */
  pollMinutes: z.number().int().min(0).max(GIT_POLL_MINUTES_MAX).default(0),
});
export type GitSyncSettingsBody = z.input<typeof gitSyncSettingsBodySchema>;

/** `POST …/git/sync/test`: whether the repository opens with these settings (nothing is stored). */
export const gitSyncTestBodySchema = gitSyncSettingsBodySchema.pick({ url: true, branch: true, token: true });
export const gitSyncTestResultSchema = z.object({
  ok: z.boolean(),
  /** The branch's head commit, when the branch exists. */
  head: z.string().optional(),
  message: z.string(),
});

export const GIT_SYNC_RUN_STATUSES = ['queued', 'running', 'success', 'failure', 'conflict', 'skipped'] as const;
export const gitSyncRunSchema = z.object({
  object: z.literal('git-sync-run'),
  id: z.string(),
  direction: z.enum(['import', 'export']),
  trigger: z.enum(['api', 'manual', 'webhook', 'poll', 'merge']),
  status: z.enum(GIT_SYNC_RUN_STATUSES),
  ref: z.string(),
  commit: z.string().optional(),
  revision: z.string().optional(),
  /** The change request a conflicting import left open. */
  changeRequest: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type GitSyncRun = z.infer<typeof gitSyncRunSchema>;
export const gitSyncRunListSchema = listSchema(gitSyncRunSchema);

/** `GET …/git/sync`: the settings (never the token), the webhook to give the forge, the sync state. */
export const gitSyncSettingsSchema = z.object({
  object: z.literal('git-sync'),
  url: z.string(),
  branch: z.string(),
  root: z.string(),
  direction: gitSyncDirectionSchema,
  hasToken: z.boolean(),
  authorName: z.string(),
  authorEmail: z.string(),
  pollMinutes: z.number().int(),
  webhook: z.object({ url: z.string(), secret: z.string() }),
  commit: z.string().optional(),
  revision: z.string().optional(),
  syncedAt: timestampSchema.optional(),
  /** An import that conflicts with the space's edits waits in this change request (number); exports wait for it. */
  conflictChangeRequest: z.number().int().optional(),
  lastRun: gitSyncRunSchema.optional(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type GitSyncSettings = z.infer<typeof gitSyncSettingsSchema>;

/** `POST …/git/sync/run`: sync now (the console's button), with the stored settings. */
export const gitSyncRunBodySchema = z.object({ direction: z.enum(['import', 'export']).default('import') });
