// Sign-in benchmark (part of `npm run bench`): wrong-password answers for an account with a password, an account
// created by SSO (no password) and an unknown e-mail, measured interleaved in one run. Every answer should cost
// one scrypt, so the medians match and timing tells nothing about which accounts exist or how they sign in.
// The recorded failures are cleared after each attempt, so throttling never adds its delay to what is measured.
import { buildApp } from '../src/server/app.js';
import { newId } from '../src/server/lib/ids.js';
import { nowIso } from '../src/server/lib/time.js';
import { hashPassword } from '../src/server/lib/secrets.js';
import { SSO_ONLY_PASSWORD } from '../src/server/domain/sso/service.js';
import { benchDatabase, median } from './setup.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const TOKEN = 'bench-sign-in-token-0123456789abcdefghijklmnop';

const { config, storage, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const accounts = {
  password: 'with-password@bench.example.com',
  sso: 'sso-only@bench.example.com',
  unknown: 'nobody@bench.example.com',
};
await storage.db
  .insertInto('users')
  .values([
    {
      id: newId(),
      email: accounts.password,
      display_name: 'Password',
      password_hash: await hashPassword('the-right-password'),
      photo_url: null,
      created_at: nowIso(),
    },
    {
      id: newId(),
      email: accounts.sso,
      display_name: 'SSO',
      password_hash: SSO_ONLY_PASSWORD,
      photo_url: null,
      created_at: nowIso(),
    },
  ])
  .execute();

async function attempt(email: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a-wrong-password' }),
  });
  await res.text();
  const ms = performance.now() - t;
  if (res.status !== 401) throw new Error(`${email}: expected 401, got ${res.status}`);
  await storage.db.deleteFrom('login_attempts').execute();
  return ms;
}

try {
  const times: Record<keyof typeof accounts, number[]> = { password: [], sso: [], unknown: [] };
  for (const email of Object.values(accounts)) await attempt(email); // warm-up
  for (let i = 0; i < SAMPLES; i++) {
    for (const [kind, email] of Object.entries(accounts) as Array<[keyof typeof accounts, string]>) {
      times[kind].push(await attempt(email));
    }
  }
  const m = { password: median(times.password), sso: median(times.sso), unknown: median(times.unknown) };
  console.log('\nSign-in answers (wrong password, median of %d, interleaved):', SAMPLES);
  console.log(`  account with a password   ${m.password.toFixed(1)} ms`);
  console.log(`  account created by SSO    ${m.sso.toFixed(1)} ms   ratio ${(m.sso / m.password).toFixed(2)}`);
  console.log(`  unknown e-mail            ${m.unknown.toFixed(1)} ms   ratio ${(m.unknown / m.password).toFixed(2)}`);
} finally {
  await app.close();
  await cleanup();
}
