import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import {
  buildRepresentations,
  etagOf,
  negotiateCoding,
  noneMatchHits,
  RepresentationCache,
} from './representations.js';

describe('representations', () => {
  it('negotiates the content coding from Accept-Encoding', () => {
    expect(negotiateCoding(undefined)).toBe('identity');
    expect(negotiateCoding('')).toBe('identity');
    expect(negotiateCoding('gzip')).toBe('gzip');
    expect(negotiateCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateCoding('br;q=0.5, gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(negotiateCoding('identity;q=1, gzip;q=0.5')).toBe('identity');
    expect(negotiateCoding('gzip;q=0.5')).toBe('gzip');
    expect(negotiateCoding('*')).toBe('br');
    expect(negotiateCoding('*;q=0')).toBe('identity');
    expect(negotiateCoding('x-gzip')).toBe('gzip');
    expect(negotiateCoding('deflate')).toBe('identity');
    expect(negotiateCoding('GZIP ; Q=0.8')).toBe('gzip');
  });

  it('tags each coding apart and matches If-None-Match weakly', () => {
    const tags = (['identity', 'gzip', 'br'] as const).map((c) => etagOf('key', c));
    expect(new Set(tags).size).toBe(3);
    expect(etagOf('key', 'gzip')).toBe(etagOf('key', 'gzip'));
    expect(etagOf('other', 'gzip')).not.toBe(etagOf('key', 'gzip'));
    const [tag] = tags as [string];
    expect(noneMatchHits(undefined, tag)).toBe(false);
    expect(noneMatchHits(tag, tag)).toBe(true);
    expect(noneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits(`"a", ${tag}`, tag)).toBe(true);
    expect(noneMatchHits('*', tag)).toBe(true);
    expect(noneMatchHits(tags[1]!, tag)).toBe(false);
  });

  it('builds the text once, gzipped and in brotli, from many pieces', async () => {
    const pieces = Array.from({ length: 20_000 }, (_, i) => `{"n":${i},"text":"ünïcode ${i}"},`);
    const r = await buildRepresentations(async (write) => {
      for (const piece of pieces) write(piece);
    });
    const text = Buffer.from(pieces.join(''));
    expect(r.identity.length).toBeGreaterThan(1);
    expect(Buffer.concat(r.identity).equals(text)).toBe(true);
    expect(r.length).toBe(text.length);
    expect(zlib.gunzipSync(r.gzip).equals(text)).toBe(true);
    expect(zlib.brotliDecompressSync(r.br).equals(text)).toBe(true);
  });

  it('builds once for callers asking together, never caches a failure, and stays within its bytes', async () => {
    const cache = new RepresentationCache(1000);
    let builds = 0;
    const build = async (write: (text: string) => void) => {
      builds++;
      await new Promise((r) => setTimeout(r, 10));
      write('x'.repeat(100));
    };
    const [a, b] = await Promise.all([cache.get('k', build), cache.get('k', build)]);
    expect(builds).toBe(1);
    expect(a).toBe(b);
    expect(await cache.get('k', build)).toBe(a);
    expect(builds).toBe(1);

    await expect(
      cache.get('bad', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await cache.get('bad', build)).toBeDefined();
    expect(builds).toBe(2);

    // Too large for the cache: answered, not kept.
    const large = async (write: (text: string) => void) => {
      builds++;
      write('y'.repeat(5000));
    };
    expect((await cache.get('large', large)).length).toBe(5000);
    await cache.get('large', large);
    expect(builds).toBe(4);
  });
});
