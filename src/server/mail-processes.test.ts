import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { apiAs, killStarted, start, within } from './test/processes.js';
import { startSmtpServer } from './test/smtp-server.js';

/**
 * The outbox across a real crash (`kill -9`): the server process dies while the relay holds its message without
 * answering; a new process on the same data, once the job's lease ran out, does not send it again (the relay got it
 * once) and records it as uncertain for the instance owner, who may send it again.
 */
const TOKEN = 'mail-crash-owner-token-0123456789abcdefghijk';
const OWNER = { ADMIN_EMAIL: 'mail-crash@example.com', ADMIN_PASSWORD: 'a-good-password', ADMIN_TOKEN: TOKEN };
afterEach(() => killStarted());

const api = apiAs(TOKEN);

describe('the outbox across server processes', () => {
  it('never sends twice a message whose process died while handing it over', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-mail-crash-'));
    // The relay takes the whole message, then never answers.
    const smtp = await startSmtpServer({ hangAfterData: true });
    try {
      const env = {
        DATA_DIR: dataDir,
        JOB_LEASE_SECONDS: '2',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_TLS: 'none',
        SMTP_FROM: 'Docs <docs@example.com>',
        ...OWNER,
      };
      const first = start(env);
      const base = (await within(60_000, 'listening', [first], first.listening)).split(' ')[2]!;
      // A password reset for the owner: its job writes the message, whose job hands it to the relay.
      const asked = await fetch(`${base}/v1/auth/password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: OWNER.ADMIN_EMAIL }),
      });
      expect(asked.status).toBe(202);
      await within(30_000, 'message handed over', [first], smtp.waitFor(OWNER.ADMIN_EMAIL, 1, 30_000));
      first.child.kill('SIGKILL');
      await first.exited;
      const db = () => new SQLite(path.join(dataDir, 'docspace.sqlite'), { readonly: true });
      const left = db();
      try {
        expect(left.prepare("SELECT state FROM email_messages WHERE kind = 'password-reset'").get()).toEqual({
          state: 'sending',
        });
      } finally {
        left.close();
      }

      smtp.behaviour = {};
      const second = start(env);
      const base2 = (await within(60_000, 'listening again', [second], second.listening)).split(' ')[2]!;
      const settled = await within(
        30_000,
        'the message settled',
        [second],
        (async () => {
          for (;;) {
            const list = await api(base2, 'GET', '/v1/instance/outbox?state=uncertain');
            if (list.items.length) return list.items[0];
            await new Promise((r) => setTimeout(r, 100));
          }
        })(),
      );
      expect(settled).toMatchObject({ kind: 'password-reset', to: OWNER.ADMIN_EMAIL, state: 'uncertain' });
      // Well after the lease ran out again: still one copy at the relay.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(smtp.to(OWNER.ADMIN_EMAIL)).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  }, 180_000);
});
