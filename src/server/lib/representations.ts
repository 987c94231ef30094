import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LruCache } from './lru-cache.js';

/**
 * Answers computed once from immutable inputs and kept as bytes: the text as written, gzipped and in brotli. The
 * key names those inputs (a revision id and whatever else the answer depends on), so an entry never goes stale: a
 * change makes a new key, and the old entry ages out of a least-recently-used cache bounded by bytes. Each process
 * keeps its own; nothing is shared, nothing is invalidated.
 *
 * The ETag is a digest of the key (and of the content coding), so a client's `If-None-Match` is answered with 304
 * without building anything, even after the entry was dropped or the process restarted.
 */
export type Coding = 'br' | 'gzip' | 'identity';

export interface Representations {
  /** The text, in the chunks it was written in (never joined into one more copy). */
  identity: Buffer[];
  length: number;
  gzip: Buffer;
  br: Buffer;
}

/** Pieces of text are gathered into chunks of about this many characters before they become bytes. */
const CHUNK_CHARS = 64 * 1024;
const GZIP_LEVEL = 6;
// Brotli quality 5 compresses large JSON better than gzip -9, in about the time of gzip -6; 11 takes minutes.
const BROTLI_QUALITY = 5;

/** Collects what a zlib stream outputs. */
function collect(stream: zlib.Gzip | zlib.BrotliCompress): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.once('end', () => resolve(Buffer.concat(parts)));
    stream.once('error', reject);
  });
}

/**
 * Builds the three representations of a text that `build` writes piece by piece. The pieces are compressed as
 * they come, by zlib on libuv's thread pool, not on the event loop.
 */
export async function buildRepresentations(
  build: (write: (text: string) => void) => Promise<void>,
): Promise<Representations> {
  const identity: Buffer[] = [];
  let length = 0;
  const gzip = zlib.createGzip({ level: GZIP_LEVEL });
  const br = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  const compressed = Promise.all([collect(gzip), collect(br)]);
  // Until the end, a failure of a stream surfaces through `compressed` (awaited below), not as unhandled.
  compressed.catch(() => undefined);
  let pending = '';
  const flush = () => {
    const chunk = Buffer.from(pending);
    pending = '';
    identity.push(chunk);
    length += chunk.length;
    gzip.write(chunk);
    br.write(chunk);
  };
  try {
    await build((text) => {
      pending += text;
      if (pending.length >= CHUNK_CHARS) flush();
    });
    if (pending) flush();
  } catch (error) {
    gzip.destroy();
    br.destroy();
    throw error;
  }
  gzip.end();
  br.end();
  const [gzipped, brotli] = await compressed;
  return { identity, length, gzip: gzipped, br: brotli };
}

/**
 * The coding to answer with, from `Accept-Encoding`: the accepted one of highest quality, brotli before gzip
 * before identity when equal. Identity, acceptable unless refused, gives way to any accepted compression unless
 * the client ranks it higher; it is the answer when nothing else is acceptable.
 */
export function negotiateCoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    const weight = params.map((p) => /^q\s*=\s*([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const value = weight === undefined ? 1 : Number(weight);
    if (name) q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  const star = q.get('*');
  const quality = (coding: Coding) => q.get(coding) ?? star ?? (coding === 'identity' ? Number.MIN_VALUE : 0);
  let best: Coding = 'identity';
  for (const coding of ['gzip', 'br'] as const) {
    const value = quality(coding);
    if (value > 0 && value >= quality(best)) best = coding;
  }
  return best;
}

/** The strong ETag of the representation of `key` in `coding`: each coding is a representation of its own. */
export function etagOf(key: string, coding: Coding): string {
  const digest = crypto.createHash('sha256').update(key).digest('base64url').slice(0, 27);
  return coding === 'identity' ? `"${digest}"` : `"${digest}-${coding}"`;
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for this header) or is `*`. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || opaque(t) === opaque(etag);
  });
}

export class RepresentationCache {
  private readonly cache: LruCache<Representations>;
  private readonly building = new Map<string, Promise<Representations>>();

  constructor(maxBytes: number, maxEntries = 10_000) {
    this.cache = new LruCache(maxEntries, maxBytes, (r) => r.length + r.gzip.length + r.br.length);
  }

  /** The representations of `key`: cached, being built (a request arriving meanwhile waits for the same build), or built now. */
  get(key: string, build: (write: (text: string) => void) => Promise<void>): Promise<Representations> {
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(cached);
    let pending = this.building.get(key);
    if (!pending) {
      pending = buildRepresentations(build)
        .then((built) => {
          this.cache.set(key, built);
          return built;
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  /**
   * Answers a GET with the representations of `key` in the coding the client accepts best, or with 304 when its
   * `If-None-Match` names that one. The caller has authorized the request already: whoever may not read the
   * answer must never learn it is unchanged.
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    contentType: string,
    build: (write: (text: string) => void) => Promise<void>,
  ): Promise<FastifyReply> {
    const coding = negotiateCoding(request.headers['accept-encoding']);
    const etag = etagOf(key, coding);
    // The answer depends on the caller's rights (checked on every request, so shared caches must not keep it) and
    // may change for the same URL (the space's current content): stored by the browser, revalidated every time.
    const validators = { etag, vary: 'accept-encoding', 'cache-control': 'private, no-cache' };
    if (noneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).headers(validators).send();
    // Headers only once the answer exists: a failed build answers its error without them.
    const r = await this.get(key, build);
    reply.headers(validators).header('content-type', contentType);
    if (coding !== 'identity') {
      return reply
        .header('content-encoding', coding)
        .header('content-length', String(r[coding].length))
        .send(r[coding]);
    }
    return reply.header('content-length', String(r.length)).send(Readable.from(r.identity, { objectMode: false }));
  }
}
