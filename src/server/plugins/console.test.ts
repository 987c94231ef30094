import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import { precompress } from '../../../scripts/precompress.js';
import { createHash } from 'node:crypto';
import { registerConsole } from './console.js';

const BIG = Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i};`).join('\n');

describe('console serving', () => {
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-console-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><title>console</title><script>window.theme = 1;</script><script type="module" src="/assets/app.js"></script>',
    );
    fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), BIG);
    precompress(root);
    app = Fastify();
    await registerConsole(app, root);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / and at every console URL, so deep links and reloads work', async () => {
    for (const url of ['/', '/login', '/o/abc/spaces/def', '/o/abc/trash?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('<title>console</title>');
    }
  });

  it("sends a strict Content-Security-Policy with the console's page: its inline script by hash, no framing", async () => {
    const hash = createHash('sha256').update('window.theme = 1;').digest('base64');
    for (const url of ['/', '/index.html', '/o/abc/spaces/def']) {
      const res = await app.inject({ method: 'GET', url });
      const policy = String(res.headers['content-security-policy']);
      expect(policy, url).toMatch(
        new RegExp(`script-src http://[^ ]+/assets/ 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`),
      );
      expect(policy, url).not.toMatch(/script-src[^;]*'self'/);
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).toContain("object-src 'none'");
      expect(policy, url).not.toContain('unsafe-eval');
    }
  });

  it('serves built assets, including ones written after start', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
    fs.writeFileSync(path.join(root, 'assets', 'later.js'), 'later');
    expect((await app.inject({ method: 'GET', url: '/assets/later.js' })).body).toBe('later');
  });

  it('answers JSON 404 for unknown API routes and missing files', async () => {
    for (const url of ['/v1/nope', '/assets/missing.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: { code: 404 } });
    }
  });

  it('sends the build’s brotli or gzip copy to a browser that accepts it, and caches hashed assets for a year', async () => {
    const url = '/assets/index-abc123.js';
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(BIG.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);
    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG);
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);

    // index.html is revalidated on every use: a new build is picked up at once.
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers.etag).toBeTruthy();
    const again = await app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': index.headers.etag! } });
    expect(again.statusCode).toBe(304);
    const deep = await app.inject({ method: 'GET', url: '/o/abc/spaces/def', headers: { 'accept-encoding': 'br' } });
    expect(deep.headers['cache-control']).toBe('no-cache');
    expect(deep.body).toContain('<title>console</title>');
  });
});
