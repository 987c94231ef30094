import { LruCache } from '../../lib/lru-cache.js';
import { safeDecode, type ContentRef } from '../../../shared/document/model.js';
import type { PageDocument } from '../../../shared/contract/content.js';
import { hrefTargets } from '../sites/render.js';
import { workers } from '../../workers/pool.js';
import { blocksToMarkdown, markdownCost, type Block } from './blocks.js';
import type { PageNode, RevisionReader } from './model.js';

/**
 * A page's body as GitBook's JSON document (shared/document), for the API (`format=document`, `…/document`): its
 * top-level blocks keyed by the page's block ids (the first node a block gives has the block's id, so comments'
 * anchors name them), its links to pages and files of the revision as page, anchor and file references, by id.
 * Every block is in it, a body's opening `# Title` too: comments may be anchored on any.
 *
 * Reading a large body is worker work (two parses): the link targets are listed there, looked up here, and the
 * document is made there with the answers.
 */
export async function pageDocument(
  reader: RevisionReader,
  node: Pick<PageNode, 'path' | 'version'>,
  blocks: Block[],
): Promise<PageDocument> {
  const markdown = blocksToMarkdown(blocks);
  // Where each block starts in the markdown read.
  const starts: Array<[number, string]> = [];
  let at = 0;
  for (const block of blocks) {
    starts.push([at, block.id]);
    at += block.markdown.length + 2;
  }
  const cost = markdownCost(markdown);
  const urls = await workers.run('markdownUrls', markdown, cost);
  const refs = await resolveRefs(reader, node.path, urls);
  return (await workers.run('markdownToDocument', { markdown, refs, starts }, cost)) as unknown as PageDocument;
}

/** What each link target of a page at `path` names in the revision (a target not found stays a URL). */
async function resolveRefs(reader: RevisionReader, path: string, urls: string[]): Promise<Record<string, ContentRef>> {
  const refs: Record<string, ContentRef> = {};
  const wanted = urls.map((url) => ({ url, internal: hrefTargets(url, path) }));
  const pageRefs = new Set<string>();
  for (const w of wanted) for (const t of w.internal?.targets ?? []) if (t.kind === 'page') pageRefs.add(t.ref);
  if (!wanted.some((w) => w.internal)) return refs;
  const byId = await reader.entries([...pageRefs]);
  const byPath = new Map<string, string>();
  for (const ref of pageRefs) {
    if (byId.has(ref)) continue;
    const id = await pageAtPath(reader, ref);
    if (id) byPath.set(ref, id);
  }
  const files = new Map(await reader.files());
  const named = new Map<string, string>();
  // The last by id when several share a name, as the published site picks.
  for (const [id, file] of [...files].sort(([a], [b]) => a.localeCompare(b))) named.set(file.name, id);
  for (const { url, internal } of wanted) {
    if (!internal) continue;
    const anchor = internal.hash.startsWith('#') ? safeDecode(internal.hash.slice(1)) : '';
    for (const t of internal.targets) {
      if (t.kind === 'page') {
        const id = byId.has(t.ref) ? t.ref : byPath.get(t.ref);
        if (!id) continue;
        refs[url] = anchor ? { kind: 'anchor', page: id, anchor } : { kind: 'page', page: id };
        break;
      }
      const id = t.kind === 'file' ? (files.has(t.id) ? t.id : undefined) : named.get(t.name);
      if (id) {
        refs[url] = { kind: 'file', file: id };
        break;
      }
    }
  }
  return refs;
}

/** The page at a path of the revision (groups give no segment), read level by level down the tree. */
async function pageAtPath(reader: RevisionReader, path: string): Promise<string | undefined> {
  const segments = path.split('/').filter(Boolean);
  if (!segments.length) return undefined;
  let level = await reader.rootIds();
  let found: string | undefined;
  for (const segment of segments) {
    found = undefined;
    // The level's pages, groups opened (their pages are on the same level of paths).
    let candidates = level;
    for (let guard = 0; candidates.length && guard < 100 && !found; guard++) {
      const entries = await reader.entries(candidates);
      const next: string[] = [];
      for (const id of candidates) {
        const entry = entries.get(id);
        if (!entry) continue;
        const version = await reader.version(entry.v);
        if (version.type === 'group') next.push(...entry.c);
        else if (version.slug === segment) {
          found = id;
          level = entry.c;
          break;
        }
      }
      candidates = next;
    }
    if (!found) return undefined;
  }
  return found;
}

/** Pages' document ids indexed, across the revisions kept (a 100,000-page space's index holds 100,000). */
const DOCUMENT_INDEX_MAX = 400_000;

/**
 * Which page of a revision has which document (`documentId`, the hash of its body), by revision: a revision never
 * changes, so an index made once serves every later lookup, in every process alike.
 */
export class DocumentPages {
  private readonly indexes = new LruCache<Map<string, string>>(64, DOCUMENT_INDEX_MAX, (m) => m.size + 1);
  private readonly making = new Map<string, Promise<Map<string, string>>>();

  async of(reader: RevisionReader, revisionId: string): Promise<Map<string, string>> {
    const hit = this.indexes.get(revisionId);
    if (hit) return hit;
    let made = this.making.get(revisionId);
    if (!made) {
      made = (async () => {
        const byDocument = new Map<string, string>();
        await reader.walkTree({
          enter: (page) => {
            const id = page.version.document;
            if (id && !byDocument.has(id)) byDocument.set(id, page.id);
            return true;
          },
          leave: () => undefined,
        });
        this.indexes.set(revisionId, byDocument);
        return byDocument;
      })().finally(() => this.making.delete(revisionId));
      this.making.set(revisionId, made);
    }
    return made;
  }
}

/** Characters of JSON of the page documents kept per process. */
const DOCUMENTS_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * Page documents already made, by revision and page (or reusable content): a revision never changes, so neither does
 * what it gives, in any process. A renderer of published sites asks for the same documents again and again (GitBook's
 * keeps its own copies an hour, by site token); a large page takes a worker hundreds of milliseconds to convert.
 */
export class PageDocuments {
  private readonly made = new LruCache<{ document: PageDocument; chars: number }>(
    4096,
    DOCUMENTS_CACHE_CHARS,
    (v) => v.chars,
  );

  async of(
    reader: RevisionReader,
    revisionId: string,
    key: string,
    node: Pick<PageNode, 'path' | 'version'>,
  ): Promise<PageDocument> {
    const id = `${revisionId}\n${key}`;
    const hit = this.made.get(id);
    if (hit) return hit.document;
    const document = await pageDocument(reader, node, await reader.document(node.version));
    this.made.set(id, { document, chars: JSON.stringify(document).length });
    return document;
  }
}
