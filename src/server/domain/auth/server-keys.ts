import crypto from 'node:crypto';
import type { Executor } from '../../storage/db.js';
import { findServerSecret, insertServerSecretIfAbsent } from '../../storage/repos/server-secrets.js';
import { nowIso } from '../../lib/time.js';

/**
 * Signing keys of this deployment (HS256), one per use, in the database (table `server_secrets`): created once by
 * whichever process needs one first, so every process sharing the database signs and verifies with the same key.
 * Processes keep a key in memory after reading it.
 */
const keys = new WeakMap<object, Map<string, Promise<Uint8Array>>>();

async function loadKey(db: Executor, name: string): Promise<Uint8Array> {
  let row = await findServerSecret(db, name);
  if (!row) {
    // Two processes may get here at once: the insert keeps whichever comes first, and both read that one back.
    await insertServerSecretIfAbsent(db, {
      name,
      value: crypto.randomBytes(32).toString('base64url'),
      created_at: nowIso(),
    });
    row = await findServerSecret(db, name);
  }
  if (!row) throw new Error(`The signing key ${name} could not be stored`);
  return new Uint8Array(Buffer.from(row.value, 'base64url'));
}

/** The deployment's signing key named `name`. */
export function serverKey(db: Executor, name: string): Promise<Uint8Array> {
  let byName = keys.get(db);
  if (!byName) keys.set(db, (byName = new Map()));
  let key = byName.get(name);
  if (!key) {
    key = loadKey(db, name);
    byName.set(name, key);
    key.catch(() => byName.delete(name));
  }
  return key;
}
