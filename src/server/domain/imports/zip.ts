import { isMap, isScalar, parseDocument } from 'yaml';
import { Archive, type SourceFiles } from './archive.js';
import type { ImportScope } from './scope.js';
import type { ImportIds } from './plan.js';
import { titleFromName, type ImportPlan, type PlannedFile, type PlannedPage } from './plan.js';
import type { SummaryGroup, SummaryItem } from './summary.js';
import crypto from 'node:crypto';
import { FifoCache } from '../../lib/fifo-cache.js';
import { workers } from '../../workers/pool.js';
import { resolveArchivePath } from './markdown.js';
import { slugify } from '../content/edit.js';
import { FILE_NAME_MAX } from '../../../shared/contract/content.js';
import { MARKDOWN_DEPTH_MAX, tooDeeplyNested } from '../../../shared/markdown-limits.js';
import { formatBytes } from './limits.js';

/**
 * A zip of markdown files and their assets, laid out as GitBook exports and Git Sync repositories are:
 *
 * - the content's root is the archive's root, the one folder everything is in, or the `root:` of a `.gitbook.yaml`;
 * - a `SUMMARY.md` there (or the file `structure.summary` names) gives the pages, their order and nesting, and
 *   groups; markdown files it does not list are not imported;
 * - without one, folders give the nesting: a folder is a page whose body is its `README.md` (or `index.md`), and
 *   files and folders come in name order, the root `README.md` first;
 * - links between the files become page links; the images and files they show or link to become files of the
 *   space (other files of the archive are left out).
 */
const MARKDOWN = /\.(md|markdown)$/i;
const README = /^(readme|index)\.(md|markdown)$/i;
const INCLUDES = /^\.gitbook\/includes\/[^/]+\.(md|markdown)$/i;

/**
 * SUMMARY.md files parsed lately, by their text's hash: a Git sync of a commit that did not change the summary
 * (most commits) does not parse it again. A 2,000-entry summary takes the markdown parser about a second.
 */
const parsedSummaries = new FifoCache<SummaryGroup[]>(32, 8 * 1024 * 1024);

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function basename(path: string): string {
  return path.split('/').at(-1)!;
}

/** Characters of a redirect's old path, at most (as a site redirect's source). */
const REDIRECT_SOURCE_MAX = 512;

/**
 * `root:`, `structure: { readme, summary }` and `redirects:` (an old path of the published space → the file of the
 * page it now is, relative to the root) of a `.gitbook.yaml` (the only keys that matter here), read with the `yaml`
 * parser: quoting, comments and flow mappings as YAML has them. Other keys and values that are not text are left
 * out; YAML that does not parse is an error naming the file. Aliases are not followed: they cannot make these
 * strings larger than the file.
 */
export function gitbookYaml(
  text: string,
  scope: ImportScope,
): { root?: string; readme?: string; summary?: string; redirects?: Record<string, string> } {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) throw scope.invalid(`.gitbook.yaml: ${doc.errors[0]!.message.split('\n')[0]}`);
  const text_ = (node: unknown) =>
    isScalar(node) && typeof node.value === 'string' && node.value.trim() ? node.value.trim() : undefined;
  const contents = doc.contents;
  if (!isMap(contents)) return {};
  const root = text_(contents.get('root', true));
  const structure = contents.get('structure', true);
  const readme = isMap(structure) ? text_(structure.get('readme', true)) : undefined;
  const summary = isMap(structure) ? text_(structure.get('summary', true)) : undefined;
  const listed = contents.get('redirects', true);
  const redirects: Record<string, string> = {};
  if (isMap(listed)) {
    for (const pair of listed.items) {
      const from = isScalar(pair.key) ? String(pair.key.value ?? '').replace(/^[./]+|\/+$/g, '') : '';
      const to = text_(pair.value);
      if (from && to && from.length <= REDIRECT_SOURCE_MAX) redirects[from] = to.replace(/^\.\//, '');
    }
  }
  return {
    ...(root ? { root } : {}),
    ...(readme ? { readme } : {}),
    ...(summary ? { summary } : {}),
    ...(Object.keys(redirects).length ? { redirects } : {}),
  };
}

/** The plan of an archive's import; the archive stays open (its files are read later) until `close`. */
export async function planArchive(
  data: Buffer | { path: string },
  scope: ImportScope,
  ids: ImportIds,
): Promise<ImportPlan> {
  const archive = await Archive.open(data, scope);
  try {
    return { ...(await plan(archive, scope, ids)), close: () => archive.close() };
  } catch (err) {
    archive.close();
    throw err;
  }
}

/**
 * The plan of the files of `archive` (a zip's, a Git commit's). `oneFolderIsRoot`: content that is all in one
 * folder has that folder as its root (a zipped folder); a repository's paths are taken as they are.
 */
export async function plan(
  archive: SourceFiles,
  scope: ImportScope,
  ids: ImportIds,
  { oneFolderIsRoot = true, what = 'the archive' } = {},
): Promise<ImportPlan> {
  const all = archive.files().map((f) => f.path);
  // Everything in one folder (a zipped folder): that folder is the root.
  let prefix = '';
  const tops = new Set(all.map((p) => (p.includes('/') ? p.split('/')[0]! : '')));
  if (oneFolderIsRoot && tops.size === 1 && !tops.has('')) prefix = `${[...tops][0]}/`;
  let structure: ReturnType<typeof gitbookYaml> = {};
  if (archive.has(`${prefix}.gitbook.yaml`)) {
    const tooLarge = () => scope.invalid('.gitbook.yaml is larger than 64 KiB');
    structure = gitbookYaml(
      (await archive.read(`${prefix}.gitbook.yaml`, 64 * 1024, tooLarge)).toString('utf8'),
      scope,
    );
    if (structure.root) {
      const root = resolveArchivePath(`${prefix}x`, structure.root);
      if (root === undefined) throw scope.invalid(`.gitbook.yaml: root points outside ${what}`);
      prefix = root ? `${root}/` : '';
    }
  }
  // Paths from here on are relative to the root.
  const files = all.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
  // GitBook's reusable contents (`.gitbook/includes/*.md`) are no pages: they become the space's reusable content.
  const includes = files.filter((p) => INCLUDES.test(p));
  const markdownFiles = files.filter((p) => MARKDOWN.test(p) && !p.startsWith('.gitbook/'));
  const isMarkdown = new Set(markdownFiles);
  const find = (name: string) => markdownFiles.find((p) => p.toLowerCase() === name.toLowerCase());
  const summaryPath = find(structure.summary ?? 'SUMMARY.md');
  const targets: Record<string, string> = {};
  const pages: PlannedPage[] = [];

  const readPage = async (path: string) => {
    const bytes = await archive.read(prefix + path, scope.limits.pageBytes, () =>
      scope.limitError('pageBytes', `${path} is larger than ${formatBytes(scope.limits.pageBytes)}`),
    );
    return bytes.toString('utf8');
  };
  const addDocument = async (
    path: string | undefined,
    title: string,
    parent: string | undefined,
    options: { slug?: string; given?: boolean } = {},
  ) => {
    const { ref, target } = ids.page();
    if (path && targets[path] === undefined) targets[path] = target;
    const markdown = path ? await readPage(path) : undefined;
    pages.push({
      ref,
      ...(parent ? { parent } : {}),
      type: 'document',
      title,
      ...(options.slug ? { slug: options.slug } : {}),
      ...(markdown !== undefined
        ? { body: { markdown, base: path!, convertHtml: true, ...(options.given ? { title } : {}) } }
        : {}),
    });
    scope.progress.total(pages.length);
    return { ref, target };
  };

  if (summaryPath) {
    const tooLarge = () =>
      scope.limitError('pageBytes', `${summaryPath} is larger than ${formatBytes(scope.limits.pageBytes)}`);
    const text = (await archive.read(prefix + summaryPath, scope.limits.pageBytes, tooLarge)).toString('utf8');
    if (tooDeeplyNested(text))
      throw scope.invalid(`${summaryPath} nests lists deeper than ${MARKDOWN_DEPTH_MAX} levels`);
    const key = crypto.createHash('sha256').update(text).digest('hex');
    let summary = parsedSummaries.get(key);
    if (!summary) {
      summary = await workers.run('parseSummary', text, text.length);
      parsedSummaries.set(key, summary, text.length);
    }
    const addItems = async (items: SummaryItem[], parent: string | undefined): Promise<void> => {
      for (const item of items) {
        scope.check();
        if (item.href && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(item.href)) {
          const { ref } = ids.page();
          pages.push({ ref, ...(parent ? { parent } : {}), type: 'link', title: item.title, href: item.href });
          // A link page holds no pages: what is listed under it follows it.
          await addItems(item.children, parent);
          continue;
        }
        let path: string | undefined;
        if (item.href) {
          const raw = item.href.replace(/[?#].*$/, '');
          let decoded = raw;
          try {
            decoded = decodeURIComponent(raw);
          } catch {
            // kept as written
          }
          const resolved = resolveArchivePath(summaryPath, decoded);
          // A file, or a folder's README.md.
          const folder = resolved ? `${resolved.replace(/\/$/, '')}/` : '';
          path = [resolved, `${folder}README.md`, `${folder}readme.md`].find(
            (p) => p !== undefined && isMarkdown.has(p),
          );
        }
        // An entry naming a section of a page listed before (`inline.md#buttons`) links to that section: GitBook
        // lists a page's sections so, and a copy of the page would be a second page of the same text.
        const fragment = /#(.+)$/.exec(item.href ?? '')?.[1];
        if (path && fragment && targets[path] !== undefined) {
          const { ref } = ids.page();
          pages.push({
            ref,
            ...(parent ? { parent } : {}),
            type: 'link',
            title: item.title,
            href: `${targets[path]}#${fragment}`,
          });
          scope.progress.total(pages.length);
          await addItems(item.children, parent);
          continue;
        }
        // Slugs from file names keep the paths the pages had: `guide/install.md` is `…/install`, and a folder's
        // README.md takes the folder's name (the root README.md takes its title's).
        const name = !path ? undefined : README.test(basename(path)) ? path.split('/').at(-2) : basename(path);
        const slug = name ? slugify(name.replace(MARKDOWN, '')) : undefined;
        const { ref } = await addDocument(path, item.title, parent, { given: true, ...(slug ? { slug } : {}) });
        await addItems(item.children, ref);
      }
    };
    for (const group of summary) {
      if (group.title) {
        const { ref } = ids.page();
        pages.push({ ref, type: 'group', title: group.title });
        await addItems(group.items, ref);
      } else {
        await addItems(group.items, undefined);
      }
    }
  } else {
    if (!markdownFiles.length) throw scope.invalid(`${what} holds no markdown files (.md)`);
    const deep = markdownFiles.find((p) => p.split('/').length > MARKDOWN_DEPTH_MAX);
    if (deep) throw scope.invalid(`${deep} is nested in more than ${MARKDOWN_DEPTH_MAX - 1} folders`);
    // Folders: each one with markdown in it (at any depth) is a page.
    const folders = new Set<string>();
    for (const p of markdownFiles) {
      const parts = p.split('/').slice(0, -1);
      for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'));
    }
    const readmeOf = (folder: string) =>
      markdownFiles.find((p) => {
        const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
        return dir === folder && README.test(basename(p));
      });
    const addFolder = async (folder: string, parent: string | undefined): Promise<void> => {
      const depth = folder ? folder.split('/').length : 0;
      const inFolder = (p: string) => (folder ? p.startsWith(`${folder}/`) : true) && p.split('/').length === depth + 1;
      const entries = [
        ...markdownFiles.filter((p) => inFolder(p) && !README.test(basename(p))).map((p) => ({ p, folder: false })),
        ...[...folders].filter((f) => inFolder(f)).map((p) => ({ p, folder: true })),
      ].sort((a, b) => byName.compare(basename(a.p), basename(b.p)));
      for (const entry of entries) {
        scope.check();
        const name = basename(entry.p);
        if (entry.folder) {
          const readme = readmeOf(entry.p);
          if (!readme && !parent) {
            // A top-level folder without a README is a group of the navigation, not an empty page.
            const { ref } = ids.page();
            pages.push({ ref, type: 'group', title: titleFromName(name) });
            scope.progress.total(pages.length);
            await addFolder(entry.p, ref);
            continue;
          }
          const { ref, target } = await addDocument(readme, titleFromName(name), parent, { slug: slugify(name) });
          targets[entry.p] ??= target;
          await addFolder(entry.p, ref);
        } else {
          await addDocument(entry.p, titleFromName(name), parent, { slug: slugify(name.replace(MARKDOWN, '')) });
        }
      }
    };
    const rootReadme = structure.readme ? find(structure.readme) : readmeOf('');
    if (rootReadme) await addDocument(rootReadme, 'Introduction', undefined);
    await addFolder('', undefined);
  }

  for (const path of includes) {
    scope.check();
    // Its id is a page ref's, but no link becomes a link to it: `{% include %}` names it by its slug.
    const { ref } = ids.page();
    const name = basename(path).replace(MARKDOWN, '');
    pages.push({
      ref,
      type: 'reusable',
      title: titleFromName(name),
      slug: slugify(name),
      body: { markdown: await readPage(path), base: path, convertHtml: true },
    });
    scope.progress.total(pages.length);
  }

  // Every other file may be an image or attachment some page shows or links to: it gets an id now, and is read
  // (and imported) only if a page uses it.
  const assets: PlannedFile[] = [];
  for (const path of files) {
    if (MARKDOWN.test(path) || basename(path) === '.gitbook.yaml') continue;
    const { ref, target } = ids.file();
    targets[path] = target;
    assets.push({
      ref,
      path,
      name: basename(path).slice(0, FILE_NAME_MAX),
      target,
      load: () =>
        archive.stream(prefix + path, scope.limits.fileBytes, () =>
          scope.invalid(
            `${path} is larger than ${formatBytes(scope.limits.fileBytes)}, the largest file a space holds`,
          ),
        ),
    });
  }
  return {
    pages,
    files: assets,
    targets,
    mode: 'archive',
    root: prefix.replace(/\/$/, ''),
    ...(structure.redirects ? { redirects: structure.redirects } : {}),
  };
}
