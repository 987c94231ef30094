import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from './config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('has working defaults: port 3000 on 127.0.0.1, SQLite under ./data, open sign-up', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.storage).toEqual({ kind: 'sqlite', file: 'data/docspace.sqlite' });
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.signup).toBe('open');
  });

  it('selects PostgreSQL for a postgres:// URL and strips a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/docs', PUBLIC_URL: 'https://docs.example.com/' });
    expect(config.storage).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/docs' });
    expect(config.publicUrl).toBe('https://docs.example.com');
  });

  it('reads TRUST_PROXY as one proxy, a number of proxies or their addresses; SAML and DNS lists', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
    expect(problems({ TRUST_PROXY: 'yes please' })[0]).toMatch(/^TRUST_PROXY: /);
    const c = loadConfig({ SAML_IDP_INITIATED_PROVIDERS: 'a1,b2', DNS_SERVERS: '127.0.0.1:5353,1.1.1.1' });
    expect(c.samlIdpInitiatedProviders).toEqual(['a1', 'b2']);
    expect(c.dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1']);
    expect(problems({ SAML_IDP_INITIATED_PROVIDERS: 'a b' })[0]).toMatch(/^SAML_IDP_INITIATED_PROVIDERS: /);
  });

  it('reads SEARCH_LANGUAGE: english by default; SQLite takes english or simple, PostgreSQL a configuration name', () => {
    expect(loadConfig({}).searchLanguage).toBe('english');
    expect(loadConfig({ SEARCH_LANGUAGE: 'simple' }).searchLanguage).toBe('simple');
    expect(problems({ SEARCH_LANGUAGE: 'french' })[0]).toMatch(/^SEARCH_LANGUAGE: SQLite searches in english/);
    const pg = 'postgres://u@db:5432/docs';
    expect(loadConfig({ DATABASE_URL: pg, SEARCH_LANGUAGE: 'french' }).searchLanguage).toBe('french');
    expect(problems({ DATABASE_URL: pg, SEARCH_LANGUAGE: "x'; drop" })[0]).toMatch(/^SEARCH_LANGUAGE: /);
  });

  it('serves integrations’ endpoints on another host: the other loopback name by default, or INTEGRATIONS_ORIGIN', () => {
    expect(loadConfig({}).integrations?.origin).toBe('http://localhost:3000');
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080' }).integrations?.origin).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://docs.example.com' }).integrations?.origin).toBeUndefined();
    expect(
      loadConfig({ PUBLIC_URL: 'https://docs.example.com', INTEGRATIONS_ORIGIN: 'https://integrations.example.com/' })
        .integrations?.origin,
    ).toBe('https://integrations.example.com');
    expect(() =>
      loadConfig({ PUBLIC_URL: 'https://docs.example.com', INTEGRATIONS_ORIGIN: 'https://docs.example.com:8443' }),
    ).toThrow(/INTEGRATIONS_ORIGIN: must be another host/);
    expect(() => loadConfig({ INTEGRATIONS_ORIGIN: 'https://integrations.example.com/x' })).toThrow(
      /INTEGRATIONS_ORIGIN/,
    );
  });

  it('reads ALLOW_PRIVATE_FETCH as none, all, or some CIDR ranges', () => {
    expect(loadConfig({}).allowPrivateFetch).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_FETCH: 'true' }).allowPrivateFetch).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_FETCH: '10.1.2.0/24, fd00::/8' }).allowPrivateFetch).toEqual([
      '10.1.2.0/24',
      'fd00::/8',
    ]);
    expect(problems({ ALLOW_PRIVATE_FETCH: '10.1.2.3' })[0]).toMatch(/^ALLOW_PRIVATE_FETCH: .*CIDR/);
  });

  it('reports one clear line per bad value', () => {
    const found = problems({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      SIGNUP: 'maybe',
      ADMIN_TOKEN: 'short',
      ADMIN_EMAIL: 'nope',
    });
    for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'SIGNUP', 'ADMIN_TOKEN', 'ADMIN_EMAIL']) {
      expect(
        found.filter((p) => p.startsWith(`${name}:`)),
        name,
      ).toHaveLength(1);
    }
  });

  it('hashes passwords at production strength unless PASSWORD_HASH_COST says otherwise, within 10 to 17', () => {
    expect(loadConfig({}).passwordHashCost).toBe(15);
    expect(loadConfig({ PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
    for (const bad of ['9', '18', 'cheap', '12.5']) {
      expect(problems({ PASSWORD_HASH_COST: bad })[0], bad).toMatch(/^PASSWORD_HASH_COST: /);
    }
  });

  it('checks live editing’s connections every 2 seconds unless COLLAB_RECHECK_SECONDS says otherwise, 1 to 3600', () => {
    expect(loadConfig({}).collabRecheckSeconds).toBe(2);
    expect(loadConfig({ COLLAB_RECHECK_SECONDS: '600' }).collabRecheckSeconds).toBe(600);
    for (const bad of ['0', '3601', 'often', '1.5']) {
      expect(problems({ COLLAB_RECHECK_SECONDS: bad })[0], bad).toMatch(/^COLLAB_RECHECK_SECONDS: /);
    }
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together, and a token only with them', () => {
    expect(problems({ ADMIN_EMAIL: 'a@example.com' })).toEqual(['ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither']);
    expect(problems({ ADMIN_TOKEN: 'x'.repeat(32) })).toEqual([
      'ADMIN_TOKEN: needs ADMIN_EMAIL and ADMIN_PASSWORD too',
    ]);
    expect(
      problems({ ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'long-enough', ADMIN_TOKEN: 'x'.repeat(32) }),
    ).toEqual([]);
  });

  it('sends no mail without SMTP_HOST, and reads the relay, its TLS mode, credentials and sender with it', () => {
    expect(loadConfig({}).smtp).toBeUndefined();
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'Docs <docs@example.com>' }).smtp).toEqual({
      host: 'smtp.example.com',
      port: 587,
      tls: 'starttls',
      from: 'Docs <docs@example.com>',
      envelopeFrom: 'docs@example.com',
    });
    const implicit = loadConfig({
      SMTP_HOST: 'smtp.example.com',
      SMTP_TLS: 'implicit',
      SMTP_FROM: 'docs@example.com',
      SMTP_USER: 'u',
      SMTP_PASSWORD: 'p',
      SMTP_ENVELOPE_FROM: 'bounces@example.com',
    }).smtp;
    expect(implicit).toMatchObject({ port: 465, auth: { user: 'u', pass: 'p' }, envelopeFrom: 'bounces@example.com' });
    expect(
      loadConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '2525', SMTP_TLS: 'none', SMTP_FROM: 'a@b.example' }).smtp,
    ).toMatchObject({ port: 2525, tls: 'none' });
  });

  it('names each SMTP setting that is wrong or missing its pair', () => {
    expect(problems({ SMTP_HOST: 'smtp.example.com' })).toEqual([
      'SMTP_FROM: required with SMTP_HOST (such as Docs <docs@example.com>)',
    ]);
    expect(problems({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'Docs <not an address>' })[0]).toMatch(/^SMTP_FROM: /);
    expect(problems({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.example', SMTP_USER: 'u' })).toEqual([
      'SMTP_USER and SMTP_PASSWORD: set both or neither',
    ]);
    expect(problems({ SMTP_FROM: 'a@b.example', SMTP_PORT: '25' })).toEqual([
      'SMTP_PORT, SMTP_FROM: set SMTP_HOST too, or leave them unset',
    ]);
    expect(problems({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.example', SMTP_TLS: 'maybe' })[0]).toMatch(
      /^SMTP_TLS: must be starttls, implicit or none/,
    );
    expect(problems({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.example', SMTP_PORT: '70000' })[0]).toMatch(
      /^SMTP_PORT: /,
    );
    expect(
      problems({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.example', SMTP_TLS_CA_FILE: '/nonexistent/ca.pem' }),
    ).toEqual(['SMTP_TLS_CA_FILE: cannot be read (ENOENT)']);
  });
});
