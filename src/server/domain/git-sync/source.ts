import type { GitBlobReader, GitRepository, GitTreeEntry } from '../../lib/git.js';
import type { ArchiveFile, SourceFiles } from '../imports/archive.js';
import type { ImportScope } from '../imports/scope.js';

/** Files read whole through the batch reader; larger ones are streamed by a git of their own. */
const SMALL_BYTES = 1024 * 1024;

/**
 * The files of one commit (under the synced folder) as the import planner reads an archive's (imports/zip.ts):
 * listed from the tree, read by blob id on demand, only those the plan needs.
 */
export class GitSource implements SourceFiles {
  private readonly byPath: Map<string, GitTreeEntry>;
  /** Paths read as empty because their blob is one already synced (`known`): `readSkipped` reads them for real. */
  readonly skipped = new Set<string>();

  constructor(
    entries: GitTreeEntry[],
    private readonly repository: GitRepository,
    private readonly reader: GitBlobReader,
    private readonly scope: ImportScope,
    /** Blob ids already synced, by path: markdown files still of that blob are not read (an unchanged page). */
    private readonly known: Map<string, string> = new Map(),
  ) {
    this.byPath = new Map(entries.map((e) => [e.path, e]));
  }

  /** The text of a path read as empty (see `skipped`). */
  async readSkipped(path: string): Promise<string> {
    const entry = this.byPath.get(path);
    const bytes = entry ? await this.reader.read(entry.oid) : undefined;
    return bytes?.toString('utf8') ?? '';
  }

  files(): ArchiveFile[] {
    return [...this.byPath.values()].map((e) => ({ path: e.path, size: e.size }));
  }

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** The blob id of a path, as the path map keeps it. */
  oid(path: string): string | undefined {
    return this.byPath.get(path)?.oid;
  }

  private entry(path: string, maxBytes: number, tooLarge: () => Error): GitTreeEntry {
    this.scope.check();
    const entry = this.byPath.get(path);
    if (!entry) throw this.scope.invalid(`the repository has no file ${path}`);
    if (entry.size > maxBytes) throw tooLarge();
    return entry;
  }

  async read(path: string, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
    const entry = this.entry(path, maxBytes, tooLarge);
    if (/\.(md|markdown)$/i.test(path) && this.known.get(path) === entry.oid) {
      this.skipped.add(path);
      return Buffer.alloc(0);
    }
    if (entry.size > SMALL_BYTES) {
      const chunks: Buffer[] = [];
      for await (const chunk of this.repository.blobStream(entry.oid)) chunks.push(chunk);
      return Buffer.concat(chunks);
    }
    const bytes = await this.reader.read(entry.oid);
    if (!bytes) throw this.scope.invalid(`the repository's file ${path} could not be read`);
    return bytes;
  }

  async *stream(path: string, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Buffer> {
    const entry = this.entry(path, maxBytes, tooLarge);
    if (entry.size <= SMALL_BYTES) {
      yield await this.read(path, maxBytes, tooLarge);
      return;
    }
    yield* this.repository.blobStream(entry.oid);
  }
}
