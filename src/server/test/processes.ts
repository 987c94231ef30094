import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';

/**
 * The real server as `npm start` runs it, compiled (global-setup.ts builds it once per run), started as a child
 * process: for tests of start-up, shutdown, crashes and several processes on one database.
 */
const children: ChildProcess[] = [];

/** Kills (SIGKILL) every process started so far (what a failed test left running). */
export function killStarted() {
  for (const c of children.splice(0)) c.kill('SIGKILL');
}

export function start(
  env: Record<string, string>,
  command: [string, string[]] = [process.execPath, [path.join(inject('serverBuild'), 'server/main.js')]],
) {
  const child = spawn(command[0], command[1], {
    env: { ...process.env, LOG_LEVEL: 'silent', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiting = new Set<{ test: (line: string) => boolean; resolve: () => void }>();
  /** Resolves once the process prints a line that passes `test`. */
  const printed = (test: (line: string) => boolean) =>
    lines.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiting.add({ test, resolve }));
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Listening on ')) resolve(line);
      for (const w of waiting) {
        if (!w.test(line)) continue;
        waiting.delete(w);
        w.resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
  // Runs that are expected to fail never await `listening`.
  listening.catch(() => undefined);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, listening, printed, exited, stderr: () => stderr };
}

/**
 * `promise`, or an error after `ms` naming the step and what the processes printed so far: a step that hangs on a
 * loaded machine says where, instead of the test's own time limit saying only that it ran out.
 */
export async function within<T>(ms: number, step: string, processes: ReturnType<typeof start>[], promise: Promise<T>) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const printed = processes.map((p, i) => `process ${i + 1}:\n${[...p.lines, p.stderr()].join('\n')}`);
      reject(new Error(`${step}: not done after ${ms} ms\n${printed.join('\n')}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls the API of a started server as `token`'s account: the answer's JSON, or an error naming the call. */
export function apiAs(token: string) {
  return async (base: string, method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}
