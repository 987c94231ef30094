import yauzl from 'yauzl';
import type { ImportScope } from './scope.js';
import { formatBytes } from './limits.js';

/**
 * Zip archives, read with yauzl. It reads the central directory (the index every zip tool writes and reads, so
 * what is imported is what an unzip would show), refuses entry names that are absolute or climb out with `..`,
 * and checks while inflating that each entry yields exactly the bytes its header declares. On top of that, this
 * reader refuses symbolic links and encrypted entries, and counts entries and inflated bytes against the import's
 * limits: the declared sizes before anything is inflated, the actual bytes while inflating (a bomb that lies
 * about its size is stopped as soon as it passes the limit, not after).
 */
export interface ArchiveFile {
  /** Path inside the archive, `/`-separated, never absolute nor with `..`. */
  path: string;
  /** Size declared by the archive (checked while reading). */
  size: number;
}

/** The files an import plan reads (zip.ts): an archive's, or a Git commit's (git-sync/source.ts). */
export interface SourceFiles {
  files(): ArchiveFile[];
  has(path: string): boolean;
  read(path: string, maxBytes: number, tooLarge: () => Error): Promise<Buffer>;
  stream(path: string, maxBytes: number, tooLarge: () => Error): AsyncIterable<Buffer>;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Entries no import wants: operating-system litter and version-control folders. */
function ignored(path: string): boolean {
  const segments = path.split('/');
  const name = segments.at(-1)!;
  return (
    segments.some((s) => s === '__MACOSX' || s === '.git' || s === '.svn') ||
    name === '.DS_Store' ||
    name === 'Thumbs.db' ||
    name === 'desktop.ini'
  );
}

export class Archive implements SourceFiles {
  private inflated = 0;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly scope: ImportScope,
    private readonly what: string,
  ) {}

  /** The files of the archive (folders and ignored litter left out), in archive order. */
  files(): ArchiveFile[] {
    return [...this.entries.values()].map((e) => ({ path: e.fileName, size: e.uncompressedSize }));
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /**
   * The bytes of one file, refused past `maxBytes` (with `tooLarge` as the message) and past the archive's
   * uncompressed size limit counted over every file read.
   */
  async read(path: string, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.stream(path, maxBytes, tooLarge)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** The bytes of one file as they inflate, with the checks of `read`: a large file is never held whole. */
  async *stream(path: string, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Buffer> {
    this.scope.check();
    const entry = this.entries.get(path);
    if (!entry) throw this.scope.invalid(`${this.what} has no file ${path}`);
    if (entry.uncompressedSize > maxBytes) throw tooLarge();
    const stream = await new Promise<NodeJS.ReadableStream & { destroy(): void }>((resolve, reject) =>
      this.zip.openReadStream(entry, (err, s) => (err ? reject(this.broken(err, path)) : resolve(s))),
    );
    let size = 0;
    const limit = this.scope.limits.uncompressedBytes;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        this.inflated += chunk.length;
        if (this.inflated > limit) {
          throw this.scope.limitError('uncompressedBytes', `${this.what} inflates to more than ${formatBytes(limit)}`);
        }
        if (size > maxBytes) throw tooLarge();
        this.scope.check();
        yield chunk;
      }
    } catch (err) {
      stream.destroy();
      if (err instanceof Error && /too many bytes|not enough bytes/.test(err.message)) {
        // The entry inflates to another size than it declares: a bomb lying about its size, or a corrupt archive.
        throw this.scope.limitError(
          'uncompressedBytes',
          `${this.what}: ${path} inflates to another size than the ${entry.uncompressedSize} bytes it declares`,
        );
      }
      if (err instanceof Error && !('status' in err)) throw this.broken(err, path);
      throw err;
    } finally {
      // Stopped early (the consumer gave up): the inflating stream goes too.
      stream.destroy();
    }
  }

  close(): void {
    this.zip.close();
  }

  private broken(err: Error, path: string): Error {
    return this.scope.invalid(`${this.what}: ${path} cannot be read (${err.message})`);
  }

  /**
   * Opens an archive (held in memory, or a file on disk) and lists it, refusing (400 naming the limit or the entry) more entries than
   * the limit, declared sizes adding up past the uncompressed size limit, paths that are absolute or climb out
   * with `..`, symbolic links, and encrypted entries. `what` names the archive in messages ("the archive", "the
   * document").
   */
  static async open(data: Buffer | { path: string }, scope: ImportScope, what = 'the archive'): Promise<Archive> {
    const { limits } = scope;
    const options = { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true };
    // An upload saved to disk is read from there, its entries as they are needed: it is never held in memory.
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      const done = (err: Error | null, z?: yauzl.ZipFile) =>
        err ? reject(scope.invalid(`${what} is not a zip archive (${err.message})`)) : resolve(z!);
      if (Buffer.isBuffer(data)) yauzl.fromBuffer(data, options, done);
      else yauzl.open(data.path, { ...options, autoClose: false }, done);
    });
    if (zip.entryCount > limits.zipEntries) {
      zip.close();
      throw scope.limitError('zipEntries', `${what} has ${zip.entryCount} entries`);
    }
    const entries = new Map<string, yauzl.Entry>();
    let declared = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('error', (err: Error) => {
          // yauzl validates names as it lists them: absolute paths, `..`, and characters no path may hold.
          const m = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(err.message);
          reject(
            m
              ? scope.invalid(
                  `${what} holds the path "${m[2]}", which points outside it (absolute paths and ".." are refused)`,
                )
              : scope.invalid(`${what} is not a valid zip archive (${err.message})`),
          );
        });
        zip.on('end', () => resolve());
        zip.on('entry', (entry: yauzl.Entry) => {
          try {
            const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
            const madeOnUnix = entry.versionMadeBy >> 8 === 3 || entry.versionMadeBy >> 8 === 19;
            if (madeOnUnix && mode === S_IFLNK) {
              throw scope.invalid(`${what} holds a symbolic link, ${entry.fileName}: links are refused`);
            }
            if (entry.isEncrypted()) throw scope.invalid(`${what} holds an encrypted file, ${entry.fileName}`);
            if (!entry.fileName.endsWith('/') && !ignored(entry.fileName)) {
              declared += entry.uncompressedSize;
              if (declared > limits.uncompressedBytes) {
                throw scope.limitError(
                  'uncompressedBytes',
                  `${what} declares more than ${formatBytes(limits.uncompressedBytes)} of files`,
                );
              }
              entries.set(entry.fileName, entry);
            }
            zip.readEntry();
          } catch (err) {
            reject(err as Error);
          }
        });
        zip.readEntry();
      });
    } catch (err) {
      zip.close();
      throw err;
    }
    return new Archive(zip, entries, scope, what);
  }
}
