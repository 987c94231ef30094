import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The official GitBook CLI (`@gitbook/cli`), installed in tools/gitbook-cli apart from the project: its own
 * postinstall downloads a tunnel binary from GitHub, so it is installed with `--ignore-scripts`, as GitBook's
 * documentation allows for everything but `gitbook dev`. `.ci/run` installs it; a test run installs it if missing.
 */
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tools/gitbook-cli');
const bin = path.join(dir, 'node_modules/@gitbook/cli/dist/cli.js');
const runtime = path.join(dir, 'node_modules/@gitbook/runtime/package.json');

/**
 * An integration written on GitBook's published runtime (tools/gitbook-cli/fixtures/runtime-demo), and the modules
 * its build resolves `@gitbook/runtime` from (installed with the CLI).
 */
export const RUNTIME_DEMO = {
  folder: path.join(dir, 'fixtures/runtime-demo'),
  modules: path.join(dir, 'node_modules'),
};

export function ensureGitbookCli(): string {
  if (!fs.existsSync(bin) || !fs.existsSync(runtime)) {
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  }
  return bin;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A CLI with its own home (its configuration lives there) and temporary directory. */
export function gitbookCli() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gitbook-cli-'));
  const run = (args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}) =>
    new Promise<CliResult>((resolve) => {
      const child = execFile(
        process.execPath,
        [ensureGitbookCli(), ...args],
        {
          cwd: options.cwd ?? home,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            XDG_CONFIG_HOME: path.join(home, '.config'),
            TMPDIR: home,
            NO_COLOR: '1',
            ...options.env,
          },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
      else child.stdin?.end();
    });
  return { home, run, cleanup: () => fs.rmSync(home, { recursive: true, force: true }) };
}
