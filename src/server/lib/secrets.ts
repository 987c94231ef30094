import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * scrypt's cost as log2 of N. The default, 15 (N=2^15, r=8), is memory-hard at 32 MiB and about 70 ms per hash;
 * PASSWORD_HASH_COST lowers it for test servers only. A stored hash carries its own parameters, so changing the
 * cost never breaks verifying the passwords stored before.
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
const SCRYPT = { r: 8, p: 1 };
/** Room for one hash of cost N: scrypt needs 128·N·r bytes; twice that leaves its bookkeeping room. */
const maxmemOf = (N: number, r: number) => 2 * 128 * N * r;
const KEYLEN = 32;

export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  const salt = crypto.randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...SCRYPT, N, maxmem: maxmemOf(N, SCRYPT.r) });
  return `scrypt$${N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True for a stored password hash; false for markers such as the one of accounts created by SSO. */
export function isPasswordHash(stored: string): boolean {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  return scheme === 'scrypt' && !!n && !!r && !!p && !!salt && !!key;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmemOf(Number(n), Number(r)),
  });
  return crypto.timingSafeEqual(expected, actual);
}

/**
 * A hash every failed lookup still pays for, so response time does not reveal whether an e-mail exists. It has
 * the cost real hashes get (`cost`), so checking it takes as long as checking a real one.
 */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(cost = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(crypto.randomBytes(16).toString('hex'), cost)));
  return hash;
}

/** A new random secret: API tokens, session tokens, CSRF tokens, invite ids. */
export function newSecret(prefix = ''): string {
  return prefix + crypto.randomBytes(32).toString('base64url');
}

/** Tokens are high-entropy, so a fast hash is enough to store them safely. */
export function hashToken(token: string): string {
  // One-shot: it runs on every request, and createHash().update().digest() takes about twice as long.
  return crypto.hash('sha256', token, 'hex');
}
