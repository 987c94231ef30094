import crypto from 'node:crypto';
import type { Executor } from '../../storage/db.js';
import { findServerSecret, insertServerSecretIfAbsent } from '../../storage/repos/server-secrets.js';
import { nowIso } from '../../lib/time.js';

/**
 * Integration secrets are stored encrypted (AES-256-GCM, a random nonce each time) with a key of `server_secrets`,
 * created once by whichever process needs it first, and never returned by the API. They are decrypted only to
 * hand them to the integration's runtime (not part of this server yet).
 */
const KEY_NAME = 'integration-secrets-aes256';
/** By database handle: a process may hold several databases (tests), each with its key. */
const cache = new WeakMap<Executor, Buffer>();

async function key(db: Executor): Promise<Buffer> {
  const cached = cache.get(db);
  if (cached) return cached;
  let row = await findServerSecret(db, KEY_NAME);
  if (!row) {
    await insertServerSecretIfAbsent(db, {
      name: KEY_NAME,
      value: crypto.randomBytes(32).toString('base64'),
      created_at: nowIso(),
    });
    row = (await findServerSecret(db, KEY_NAME))!;
  }
  const value = Buffer.from(row.value, 'base64');
  cache.set(db, value);
  return value;
}

export async function encryptSecrets(db: Executor, secrets: Record<string, string>): Promise<string> {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await key(db), nonce);
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.');
}

export async function decryptSecrets(db: Executor, stored: string): Promise<Record<string, string>> {
  const [version, nonce, tag, data] = stored.split('.');
  if (version !== 'v1' || !nonce || !tag || data === undefined) throw new Error('Unknown secrets format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', await key(db), Buffer.from(nonce, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, string>;
}
