import crypto from 'node:crypto';
import { posix } from 'node:path';
import { Document, isMap, parseDocument } from 'yaml';
import { DEFAULT_PAGE_LAYOUT, type PageLayout } from '../../../shared/contract/content.js';
import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/git-sync.js';
import { openBlob } from '../../storage/repos/objects.js';
import { findChangeRequest } from '../../storage/repos/change-requests.js';
import { RevisionReader, revisionOfSpace, type PageNode, type ReusableContent } from '../content/model.js';
import { blocksToMarkdown } from '../content/blocks.js';
import { slugify } from '../content/edit.js';
import { loadSpace } from '../spaces/service.js';
import { gitbookYaml } from '../imports/zip.js';
import { ImportScope } from '../imports/scope.js';
import { resolveArchivePath } from '../imports/markdown.js';
import { GitError, GitRepository, type GitFileChange, type GitIdentity, type GitRemote } from '../../lib/git.js';
import { nowIso } from '../../lib/time.js';
import { includeName, parseGitbookTag, tightGitbookTags } from '../../../shared/gitbook-blocks.js';
import { importCommit, type GitImportSettings } from './import.js';

/**
 * Space → Git: the space's current content committed to the synced branch, as GitBook's Git Sync writes a
 * repository, touching only what changed since the last sync:
 * - a page whose version did not change keeps its file byte for byte; a changed page is written at the path it
 *   has (paths are stable: a new title does not move a file), its front matter's other keys kept;
 * - a new page gets a path in GitBook's layout: `<group-slug>/…`, `<slug>.md`, or `<slug>/README.md` when it has
 *   pages under it, never over a file the repository has; a deleted page's file is removed;
 * - links to pages and files become relative paths (`../reference/api.md#auth`, `.gitbook/assets/logo.png`), a
 *   reusable content is `.gitbook/includes/<slug>.md`, new images and attachments go to `.gitbook/assets/`;
 * - SUMMARY.md is written again only when the tree (order, nesting, titles, groups) changed.
 * The commit's parent is the branch's tip: when someone pushed since the last sync, their commit is imported
 * first (a conflict stops the export and waits in its change request), and a push refused because the branch
 * moved meanwhile is retried by the job, importing first again. Nothing is ever force-pushed.
 */
export interface GitExportRequest {
  runId: string;
  remote: GitRemote;
  branch: string;
  root: string;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

export type GitExportOutcome =
  | { status: 'skipped'; message: string; commit?: string }
  | { status: 'success'; commit: string; revision: string; message: string }
  | { status: 'conflict'; commit: string; changeRequestId: string; message: string };

/** Thrown when the branch moved while exporting: the job tries again (importing the new commit first). */
export class BranchMovedError extends Error {}

/** Git's id of a blob: sha1 over `blob <size>\0` and the bytes. */
export function gitBlobId(bytes: Buffer): string {
  return crypto.createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

const ID = /\/(pages|files)\/([0-9a-z]{26})/g;

/** A path as a markdown link target: spaces and parentheses escaped, the rest as written. */
function linkTarget(path: string): string {
  return path.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function relative(fromFile: string, to: string): string {
  const rel = posix.relative(posix.dirname(fromFile), to);
  return rel || posix.basename(to);
}

/** The front matter of a file (its mapping as YAML text) and its body. */
function splitFrontMatter(text: string): { yaml?: string; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { yaml: m[1]!, body: text.slice(m[0].length) } : { body: text };
}

/**
 * Front matter for a page: the old file's keys kept (icon, cover, …), `description`, `hidden` and `layout` the
 * page's (`layout` as GitBook writes it, `title: { visible: false }`: the options that differ from the defaults and
 * those the file had; keys of it this product does not know, such as `tags`, kept).
 */
function frontMatter(
  old: string | undefined,
  fields: Record<string, string | number | true | undefined>,
  layout?: Partial<PageLayout>,
): string {
  const doc = old ? parseDocument(old) : undefined;
  const keep = doc && !doc.errors.length && isMap(doc.contents) ? doc : new Document({});
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === '') keep.delete(key);
    else keep.set(key, value);
  }
  const had = keep.get('layout', true);
  const map = isMap(had) ? had : undefined;
  if (layout || map) {
    const full = { ...DEFAULT_PAGE_LAYOUT, ...layout };
    const option = (key: string, value: boolean, extra: Record<string, string> = {}) => {
      const current = map?.get(key, true);
      if (layout?.[key as keyof PageLayout] === undefined && current === undefined && !Object.keys(extra).length)
        return;
      if (isMap(current)) {
        current.set('visible', value);
        for (const [k, v] of Object.entries(extra)) current.set(k, v);
      } else keep.setIn(['layout', key], keep.createNode({ visible: value, ...extra }));
    };
    if (layout?.width !== undefined || map?.has('width')) keep.setIn(['layout', 'width'], full.width);
    option('cover', full.cover, layout?.coverSize ? { size: full.coverSize } : {});
    for (const key of ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const) {
      option(key, full[key]);
    }
  }
  if (!isMap(keep.contents) || !keep.contents.items.length) return '';
  return `---\n${keep.toString({ lineWidth: 0 })}---\n\n`;
}

/** Runs one export (see the top of this file). `ctx.actor` is who the sync acts as. */
export async function exportSpace(
  ctx: ServiceContext,
  settings: GitImportSettings,
  spaceId: string,
  request: GitExportRequest,
): Promise<GitExportOutcome> {
  const db = ctx.db;
  await loadSpace(db, ctx, spaceId, 'view', 'export it to Git');
  let sync = await repo.findGitSync(db, spaceId);
  if (!sync) throw new GitError('Git Sync was removed from the space', 'not-found');
  const waiting = sync.conflict_change_request_id
    ? await findChangeRequest(db, spaceId, sync.conflict_change_request_id)
    : undefined;
  if (waiting?.status === 'open') {
    throw new GitError(
      'An import from the repository conflicts with the space and waits in its change request: resolve and merge it first',
      'rejected',
    );
  }
  const cache = await GitRepository.open(settings.cacheDir(spaceId), { allowPrivate: settings.allowPrivate });
  let tip = await cache.remoteHead(request.remote, request.branch);
  if (tip) {
    tip = await cache.fetch(request.remote, request.branch);
    // Someone pushed since the last sync: their commit comes in first.
    if (sync.commit_oid && tip !== sync.commit_oid) {
      const imported = await importCommit(ctx, settings, spaceId, {
        runId: request.runId,
        remote: request.remote,
        ref: request.branch,
        root: request.root,
        force: false,
      });
      if (imported.status === 'conflict') return imported;
      sync = (await repo.findGitSync(db, spaceId))!;
    }
  }
  const space = await loadSpace(db, ctx, spaceId, 'view', 'export it to Git');
  const current = space.row.revision_id;
  if (sync.revision_id === current && sync.commit_oid === tip && tip) {
    return { status: 'skipped', commit: tip, message: 'Nothing to export: the repository has the space’s content' };
  }

  // The content root of the synced folder (.gitbook.yaml's root), and where SUMMARY.md is.
  const projectDir = request.root ? `${request.root}/` : '';
  // A new branch starts from the commit synced last (the space's content is that commit's plus what changed).
  const base = tip ?? (sync.commit_oid && (await cache.has(sync.commit_oid)) ? sync.commit_oid : undefined);
  const treeFiles = base ? await cache.files(base, request.root) : [];
  const inTree = new Map(treeFiles.map((f) => [f.path, f]));
  const reader = cache.blobs();
  try {
    const readText = async (path: string) => {
      const entry = inTree.get(path);
      return entry ? (await reader.read(entry.oid))?.toString('utf8') : undefined;
    };
    const scope = new ImportScope('url', settings.limits, { stage() {}, total() {}, imported() {} }, false);
    let structure: ReturnType<typeof gitbookYaml> = {};
    try {
      const yaml = await readText('.gitbook.yaml');
      if (yaml) structure = gitbookYaml(yaml, scope);
    } finally {
      scope.close();
    }
    const contentRoot = structure.root ? (resolveArchivePath('x', structure.root) ?? '') : '';
    const rootPrefix = contentRoot ? `${contentRoot}/` : '';
    const summaryPath = structure.summary ?? 'SUMMARY.md';
    const taken = new Set(
      treeFiles.filter((f) => f.path.startsWith(rootPrefix)).map((f) => f.path.slice(rootPrefix.length)),
    );

    const now = new RevisionReader(db, await revisionOfSpace(db, spaceId, current));
    const before = sync.revision_id
      ? await revisionOfSpace(db, spaceId, sync.revision_id).then(
          (r) => new RevisionReader(db, r),
          () => undefined,
        )
      : undefined;
    const tree = await now.tree();
    const oldTree = before ? await before.tree() : [];
    const oldVersions = new Map<string, string>();
    const oldSlugs = new Map<string, string>();
    const walkOld = (nodes: PageNode[]) => {
      for (const n of nodes) {
        oldVersions.set(n.id, n.entry.v);
        oldSlugs.set(n.id, n.version.slug);
        walkOld(n.pages);
      }
    };
    walkOld(oldTree);

    const rows = await repo.listGitSyncPaths(db, spaceId);
    const pathOf = new Map<string, string>(); // object id → path (pages, reusable contents, files)
    for (const row of rows) pathOf.set(`${row.kind}:${row.object_id}`, row.path);
    const changes = new Map<string, GitFileChange>();
    const newRows = new Map<string, repo.GitSyncPathRow>(rows.map((r) => [r.path, r]));
    const write = (kind: repo.GitSyncPathRow['kind'], id: string, path: string, bytes: Buffer) => {
      changes.set(rootPrefix + path, bytes);
      newRows.set(path, { space_id: spaceId, path, kind, object_id: id, blob_oid: gitBlobId(bytes) });
      pathOf.set(`${kind}:${id}`, path);
    };
    const remove = (path: string) => {
      changes.set(rootPrefix + path, null);
      newRows.delete(path);
    };
    const unique = (wanted: string) => {
      const ext = posix.extname(wanted);
      const stem = wanted.slice(0, wanted.length - ext.length);
      let candidate = wanted;
      for (let n = 1; taken.has(candidate); n++) candidate = `${stem}${/README$/.test(stem) ? '' : `-${n}`}${ext}`;
      taken.add(candidate);
      return candidate;
    };

    // Paths: a page keeps the one it has; a new page gets one in GitBook's layout.
    const documents: Array<{ node: PageNode; path: string; dirty: boolean }> = [];
    let firstDocument = true;
    const place = (nodes: PageNode[], dir: string) => {
      for (const node of nodes) {
        if (node.version.type === 'group') {
          place(node.pages, `${dir}${slugify(node.version.title) || 'group'}/`);
          continue;
        }
        if (node.version.type !== 'document') {
          place(node.pages, dir);
          continue;
        }
        let path = pathOf.get(`page:${node.id}`);
        let isNew = !path;
        // A new slug moves a page's own file (`<old-slug>.md` → `<new-slug>.md`, in its folder); a new title alone
        // does not, nor does a slug change of a folder's README.md (its pages would move with it).
        const oldSlug = oldSlugs.get(node.id);
        if (path && oldSlug && node.version.slug && oldSlug !== node.version.slug) {
          if (posix.basename(path).toLowerCase() === `${oldSlug}.md`) {
            const folder = posix.dirname(path) === '.' ? '' : `${posix.dirname(path)}/`;
            path = unique(`${folder}${node.version.slug}.md`);
            isNew = true;
          }
        }
        if (!path) {
          const slug = node.version.slug || slugify(node.version.title) || 'page';
          if (firstDocument && !dir && !taken.has('README.md')) path = 'README.md';
          else path = node.pages.length ? `${dir}${slug}/README.md` : `${dir}${slug}.md`;
          path = unique(path);
        }
        firstDocument = false;
        const dirty = isNew || oldVersions.get(node.id) !== node.entry.v;
        documents.push({ node, path, dirty });
        pathOf.set(`page:${node.id}`, path);
        const childDir = /(^|\/)README\.md$/i.test(path) ? posix.dirname(path) : path.replace(/\.(md|markdown)$/i, '');
        place(node.pages, childDir === '.' || !childDir ? dir : `${childDir}/`);
      }
    };
    place(tree, '');

    // Reusable contents: `.gitbook/includes/<slug>.md`.
    const reusable = await now.reusableContents();
    const oldReusable = new Map(((await before?.reusableContents()) ?? []).map((r) => [r.id, r]));
    const includeBySlug = new Map<string, ReusableContent>(reusable.map((r) => [r.version.slug, r]));
    for (const r of reusable) {
      if (!pathOf.get(`reusable:${r.id}`))
        pathOf.set(`reusable:${r.id}`, unique(`.gitbook/includes/${r.version.slug}.md`));
    }

    // Files linked from what is written: a file the repository has keeps its path; a new one goes to the assets.
    const files = new Map(await now.files());
    const assets = async (markdown: string) => {
      for (const [, kind, id] of markdown.matchAll(ID)) {
        if (kind !== 'files' || pathOf.get(`file:${id}`)) continue;
        const entry = files.get(id!);
        if (!entry) continue;
        const path = unique(`.gitbook/assets/${entry.name.replace(/[/\\]/g, '_')}`);
        const blob = await openBlob(db, entry.blob);
        if (!blob) continue;
        const chunks: Buffer[] = [];
        for await (const chunk of blob.chunks()) chunks.push(chunk);
        write('file', id!, path, Buffer.concat(chunks));
      }
    };
    /** The markdown of `from` with its links to pages, files and reusable contents relative to it. */
    const relink = (markdown: string, from: string) =>
      markdown
        .replace(ID, (found, kind: string, id: string) => {
          const target = pathOf.get(`${kind === 'pages' ? 'page' : 'file'}:${id}`);
          return target ? linkTarget(relative(from, target)) : found;
        })
        .split('\n')
        .map((line) => {
          const tag = line.includes('{% include') ? parseGitbookTag(line.trim()) : undefined;
          if (tag?.name !== 'include') return line;
          const target = includeBySlug.get(includeName(tag));
          const path = target && pathOf.get(`reusable:${target.id}`);
          return path ? line.replace(/(include\s+)"[^"]*"/, `$1"${relative(from, path)}"`) : line;
        })
        .join('\n');

    for (const doc of documents) {
      if (!doc.dirty) continue;
      const body = tightGitbookTags(blocksToMarkdown(await now.document(doc.node.version)));
      await assets(body);
      // Its cover: an image of the assets, named relative to the page's file as its links are.
      const cover = doc.node.version.cover;
      if (cover) await assets(`/files/${cover.file}`);
      const coverPath = cover && pathOf.get(`file:${cover.file}`);
      const old = await readText(doc.path);
      const matter = frontMatter(
        old ? splitFrontMatter(old).yaml : undefined,
        {
          description: doc.node.version.description,
          hidden: doc.node.version.hidden,
          noIndex: doc.node.version.noIndex,
          noRobotsIndex: doc.node.version.noRobotsIndex,
          icon: doc.node.version.icon,
          cover: coverPath ? relative(doc.path, coverPath) : undefined,
          // GitBook writes where the cover is cut with it, 0 at its top.
          coverY: coverPath ? (cover?.yPos ?? 0) : undefined,
        },
        doc.node.version.layout,
      );
      const text = `${matter}# ${doc.node.version.title}\n\n${relink(body, doc.path).trimEnd()}\n`;
      write('page', doc.node.id, doc.path, Buffer.from(text));
    }
    for (const r of reusable) {
      const old = oldReusable.get(r.id);
      const path = pathOf.get(`reusable:${r.id}`)!;
      if (old && JSON.stringify(old.version) === JSON.stringify(r.version) && newRows.has(path)) continue;
      const body = tightGitbookTags(blocksToMarkdown(await now.document(r.version)));
      await assets(body);
      const text = `${frontMatter(undefined, { title: r.version.title })}${relink(body, path).trimEnd()}\n`;
      write('reusable', r.id, path, Buffer.from(text));
    }
    // What the space no longer has.
    const live = new Set([
      ...documents.map((d) => `page:${d.node.id}`),
      ...reusable.map((r) => `reusable:${r.id}`),
      ...[...files.keys()].map((id) => `file:${id}`),
    ]);
    for (const row of rows) {
      const moved = pathOf.get(`${row.kind}:${row.object_id}`) !== row.path;
      if (!live.has(`${row.kind}:${row.object_id}`) || moved) remove(row.path);
    }

    // SUMMARY.md, when the tree changed.
    const summary = summaryOf(tree, (id) => pathOf.get(`page:${id}`));
    const oldSummary = await readText(summaryPath);
    const treeChanged =
      structureKey(tree, (id) => pathOf.get(`page:${id}`)) !==
        structureKey(oldTree, (id) => rows.find((r) => r.kind === 'page' && r.object_id === id)?.path) || !oldSummary;
    if (treeChanged && summary !== oldSummary) changes.set(rootPrefix + summaryPath, summary);

    if (!changes.size && tip) {
      await transaction(db, async (tx) => {
        await repo.updateGitSync(tx, spaceId, { revision_id: current, commit_oid: tip, synced_at: nowIso() });
      });
      return { status: 'skipped', commit: tip, message: 'Nothing to export: the repository has the space’s content' };
    }
    // Nothing changed, to a new branch: the branch is made at the commit synced last.
    const commit =
      !changes.size && base
        ? base
        : await cache.commit({
            ...(base ? { parent: base } : {}),
            files: new Map([...changes].map(([p, c]) => [projectDir + p, c])),
            message: request.message,
            author: request.author,
            committer: request.committer,
          });
    const pushed = await cache.push(request.remote, commit, request.branch);
    if (pushed === 'rejected') throw new BranchMovedError('The branch moved on while exporting: trying again');
    await transaction(db, async (tx: Executor) => {
      await repo.replaceGitSyncPaths(tx, spaceId, [...newRows.values()]);
      await repo.upsertGitSyncCommit(tx, {
        space_id: spaceId,
        revision_id: current,
        oid: commit,
        message: request.message,
        ref: `refs/heads/${request.branch}`,
        url: null,
        created_by_gitbook: 1,
        created_at: nowIso(),
      });
      await repo.updateGitSync(tx, spaceId, { commit_oid: commit, revision_id: current, synced_at: nowIso() });
    });
    return {
      status: 'success',
      commit,
      revision: current,
      message: `${request.message.split('\n')[0]} (${changes.size} file${changes.size === 1 ? '' : 's'} changed)`,
    };
  } finally {
    reader.close();
  }
}

/** The tree's shape as SUMMARY.md shows it: ids, types, titles, links, paths, in order. */
function structureKey(tree: PageNode[], pathOf: (id: string) => string | undefined): string {
  const key = (nodes: PageNode[]): unknown[] =>
    nodes.map((n) => [n.id, n.version.type, n.version.title, n.version.href ?? pathOf(n.id) ?? '', key(n.pages)]);
  return JSON.stringify(key(tree));
}

/** SUMMARY.md as GitBook writes it: top pages, `##` groups, nested lists, link pages. */
export function summaryOf(tree: PageNode[], pathOf: (id: string) => string | undefined): string {
  const lines = ['# Table of contents', ''];
  const title = (t: string) => t.replace(/([[\]\\])/g, '\\$1');
  const items = (nodes: PageNode[], depth: number) => {
    for (const n of nodes) {
      if (n.version.type === 'group') continue;
      const target = n.version.type === 'link' ? n.version.href : pathOf(n.id);
      if (!target) continue;
      lines.push(`${'  '.repeat(depth)}* [${title(n.version.title)}](${linkTarget(target)})`);
      items(n.pages, depth + 1);
    }
  };
  let open = false;
  for (const node of tree) {
    if (node.version.type === 'group') {
      if (open || lines.length > 2) lines.push('');
      lines.push(`## ${node.version.title}`, '');
      items(node.pages, 0);
      open = true;
    } else {
      items([node], 0);
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
