import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerConsole } from './console.js';

describe('console serving', () => {
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-console-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
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
});
