import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

/** The real entry point, as `npm start` runs it: first-start output, configuration errors, graceful shutdown. */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Listening on ')) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
  // Runs that are expected to fail never await `listening`.
  listening.catch(() => undefined);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, listening, exited, stderr: () => stderr };
}

describe('server entry point', () => {
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

  it('exits non-zero with one line per bad setting', async () => {
    const bad = start({ PORT: 'x', SIGNUP: 'sometimes' });
    expect(await bad.exited).toBe(1);
    const lines = bad.stderr().trim().split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Invalid configuration: PORT: /)]));
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Invalid configuration: SIGNUP: /)]));
  });
});
