import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// scrypt is memory-hard: N=2^15, r=8 uses 32 MiB per hash.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
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
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(expected, actual);
}

/** A hash every failed lookup still pays for, so response time does not reveal whether an e-mail exists. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return dummyHash;
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
