import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl } from './test/postgres.js';
import { killStarted, start, within } from './test/processes.js';

/**
 * The real entry point, as `npm start` runs it (compiled: global-setup.ts builds the server once per run):
 * first-start output, configuration errors, graceful shutdown. The tests run side by side (each has its own data
 * directory or database; they mostly wait for processes to start), and what a failed one left running is killed at
 * the end.
 */
afterAll(killStarted);

describe.concurrent('server entry point', () => {
  it('creates and prints the owner credentials once, serves, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-main-'));
    const first = start({ DATA_DIR: dataDir });
    const line = await first.listening;
    expect(line).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+ \(console at \/, API at \/v1/);
    const token = first.lines.find((l) => l.includes('Owner API token'))?.split(': ')[1];
    expect(first.lines.some((l) => l.includes('Owner password (shown once)'))).toBe(true);
    const url = line.split(' ')[2]!;
    const me = await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    // The printed e-mail and password sign in.
    const email = first.lines.find((l) => l.startsWith('First start'))?.match(/owner account (\S+) /)?.[1];
    const password = first.lines.find((l) => l.includes('Owner password'))?.split(': ')[1];
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // Second start on the same database: nothing is created or printed again, and the token still works.
    const second = start({ DATA_DIR: dataDir });
    const url2 = (await second.listening).split(' ')[2]!;
    expect(second.lines.some((l) => l.includes('First start'))).toBe(false);
    expect((await fetch(`${url2}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'two processes started at once on an empty PostgreSQL database both come up, with one owner',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const name = `ds_start_${crypto.randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${name}`);
      try {
        const url = databaseUrl(process.env.TEST_DATABASE_URL!, name);
        const env = {
          DATABASE_URL: url,
          ADMIN_EMAIL: 'twice@example.com',
          ADMIN_PASSWORD: 'a-good-password',
          // Warnings and errors only: printed with the step that failed to finish (see within).
          LOG_LEVEL: 'warn',
        };
        const [a, b] = [start(env), start(env)];
        const [lineA, lineB] = await within(
          60_000,
          'both processes listening',
          [a, b],
          Promise.all([a.listening, b.listening]),
        );
        expect(lineA).toMatch(/^Listening on /);
        expect(lineB).toMatch(/^Listening on /);
        // Exactly one of them created the owner; both serve it.
        const firstStarts = [a, b].filter((p) => p.lines.some((l) => l.startsWith('First start')));
        expect(firstStarts).toHaveLength(1);
        for (const line of [lineA, lineB]) {
          const login = await within(
            30_000,
            `signing in at ${line}`,
            [a, b],
            fetch(`${line.split(' ')[2]}/v1/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'twice@example.com', password: 'a-good-password' }),
            }),
          );
          expect(login.status).toBe(200);
          await login.arrayBuffer();
        }
        const check = new pg.Client({ connectionString: url });
        await check.connect();
        const users = await check.query('select count(*)::int as n from users');
        await check.end();
        expect(users.rows[0].n).toBe(1);
        a.child.kill('SIGTERM');
        b.child.kill('SIGTERM');
        expect(
          await within(30_000, 'both processes exiting on SIGTERM', [a, b], Promise.all([a.exited, b.exited])),
        ).toEqual([0, 0]);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    150_000,
  );

  it('`npm start` passes SIGTERM to the server: in-flight requests finish (Connection: close), the port closes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-npm-start-'));
    const started = start({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, ['npm', ['start', '--silent']]);
    const url = (await started.listening).split(' ')[2]!;
    const { hostname, port } = new URL(url);
    // A request in flight when the signal arrives: its body is only half sent.
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const socketClosed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    socket.write(
      `POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    started.child.kill('SIGTERM');
    // The rest of the body once the server has begun shutting down (it logs so before closing anything).
    await started.printed((line) => line.includes('shutting down: finishing in-flight requests'));
    socket.write(body.slice(10));
    await socketClosed;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(await started.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // The server is gone with the command: nothing listens on its port any more.
    await expect(fetch(`${url}/v1/health`)).rejects.toThrow();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('exits non-zero with one line per bad setting', async () => {
    const bad = start({ PORT: 'x', SIGNUP: 'sometimes' });
    expect(await bad.exited).toBe(1);
    const lines = bad.stderr().trim().split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Invalid configuration: PORT: /)]));
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Invalid configuration: SIGNUP: /)]));
  });
});
