import { readFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { ImportLimits } from '../shared/contract/imports.js';
import { FILE_UPLOAD_MAX_BYTES } from '../shared/contract/content.js';
import { DEFAULT_PASSWORD_HASH_COST } from './lib/secrets.js';

/**
 * Configuration comes from the environment only. Every value is validated at start; each bad value gets one
 * line naming the variable, and the process exits non-zero (see main.ts).
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(v) || !v.includes('://'), {
      message: 'must be a postgres:// URL, a sqlite: path, or a file path',
    })
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://docs.example.com' })
    .optional(),
  ADMIN_EMAIL: z.email({ message: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').max(256).optional(),
  SIGNUP: z.enum(['open', 'closed'], { message: 'must be open or closed' }).default('open'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Behind reverse proxies: which `X-Forwarded-For` entries to believe for the client address (sign-in limits).
   * `true` is one proxy (the entry it appended), a number that many proxies, or their addresses / CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
      'must be true, false, a number of proxies, or comma-separated proxy addresses or CIDR ranges',
    )
    .default('false'),
  /**
   * Let content fetched from user-given URLs come from private and loopback addresses (off: refused): all of them
   * (`true`), or those of some CIDR ranges (an intranet wiki to import from).
   */
  ALLOW_PRIVATE_FETCH: z
    .string()
    .refine(
      (v) => v === 'true' || v === 'false' || v.split(',').every((r) => ipaddr.isValidCIDR(r.trim())),
      'must be true, false, or comma-separated CIDR ranges such as 10.1.2.0/24',
    )
    .default('false'),
  /** Whether integrations' scripts may reach the internet (public addresses only); off: only this server's API. */
  INTEGRATIONS_EGRESS: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  /** Host names integrations' scripts may reach (`example.com`, `*.example.com`, comma-separated); unset: any. */
  INTEGRATIONS_EGRESS_ALLOW: z
    .string()
    .regex(/^(\*\.)?[A-Za-z0-9.-]+(,(\*\.)?[A-Za-z0-9.-]+)*$/, 'must be comma-separated host names such as *.slack.com')
    .optional(),
  /** Integration script processes one server process keeps running (one per integration and organization). */
  INTEGRATIONS_PROCESSES_MAX: z.coerce.number().int().min(1).max(1000).default(16),
  /**
   * The origin integrations' HTTP endpoints are served from (`https://integrations.docs.example.com`): another host
   * than PUBLIC_URL's, pointed at this server. Unset with a loopback PUBLIC_URL: the other loopback name.
   */
  INTEGRATIONS_ORIGIN: z
    .url()
    .refine((v) => /^https?:\/\/[^/]+\/?$/.test(v), 'must be an origin (scheme and host, no path)')
    .optional(),
  /** Largest JavaScript heap of one integration's process, in MB. */
  INTEGRATIONS_HEAP_MB: z.coerce.number().int().min(32).max(4096).default(128),
  /**
   * SAML providers (comma-separated ids) that may sign people in from the identity provider's side, with
   * responses that answer no request of this server. Off for every provider by default.
   */
  SAML_IDP_INITIATED_PROVIDERS: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/, 'must be a comma-separated list of SAML provider ids')
    .optional(),
  /** Files a Git-synced repository folder may have (larger ones are refused with a clear error). */
  GIT_SYNC_FILES_MAX: z.coerce.number().int().min(100).max(1_000_000).optional(),
  /** Seconds a background job of a process that stopped waits before another process takes it over. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).optional(),
  /** DNS servers (comma-separated `ip` or `ip:port`) for e-mail domain verification; default: the system's. */
  DNS_SERVERS: z
    .string()
    .regex(/^[^,\s]+(,[^,\s]+)*$/, 'must be a comma-separated list of addresses such as 1.1.1.1 or 127.0.0.1:5353')
    .optional(),
  /** Seconds a client has to send a whole request, headers and body (408 after). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Worker threads for CPU-heavy work (parsing, diffs, PDF, published pages); default: cores - 1, 1 to 4. */
  WORKER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** Seconds one such task may take before it is stopped and its request answers 503. */
  WORKER_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(10),
  /**
   * Language of full-text search: stemming, and on PostgreSQL stop words (a text search configuration name such
   * as english, french, german, simple). SQLite offers english (porter stemming) or simple (none).
   */
  SEARCH_LANGUAGE: z
    .string()
    .regex(/^[a-z_]{1,63}$/, 'must be a text search configuration name such as english or simple')
    .default('english'),
  /**
   * scrypt's cost (log2 of N) for new password hashes. 15 is the production strength; lower values exist for test
   * servers, which sign up hundreds of accounts. Stored hashes keep their own cost, so a change never locks
   * anyone out.
   */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(17).default(DEFAULT_PASSWORD_HASH_COST),
  /**
   * Seconds between two checks of live editing's connections when nothing was changed through the API (a session
   * that ran out); any change made through the API, on any process, checks them at once.
   */
  COLLAB_RECHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
  /** Bytes one file of a space may have (uploads, and files of imports): 100 MiB unless set; 1 MiB to 1 GiB. */
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(1024 * 1024 * 1024)
    .default(FILE_UPLOAD_MAX_BYTES),
  /** Bytes of a zip an import reads (uploaded, or downloaded from a URL; kept on disk, never in memory). */
  IMPORT_ARCHIVE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(64 * 1024 * 1024 * 1024)
    .optional(),
  /** Seconds one import may take, from its start to its revision. */
  IMPORT_TIME_LIMIT_SECONDS: z.coerce.number().int().min(10).max(86_400).optional(),
  /** The SMTP relay e-mail goes through (password resets, invitations, notifications); unset: kept in the outbox. */
  SMTP_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or an IP address')
    .optional(),
  /** Its port: 587 unless set (465 with SMTP_TLS=implicit). */
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** starttls (default: refuse a relay without STARTTLS), implicit (TLS from the first byte, port 465) or none. */
  SMTP_TLS: z
    .enum(['starttls', 'implicit', 'none'], { message: 'must be starttls, implicit or none' })
    .default('starttls'),
  SMTP_USER: z.string().max(320).optional(),
  SMTP_PASSWORD: z.string().max(1000).optional(),
  /** The sender: `Docs <docs@example.com>` or a bare address. */
  SMTP_FROM: z.string().max(320).optional(),
  /** The address bounces go to (SMTP MAIL FROM); the sender's address unless set. */
  SMTP_ENVELOPE_FROM: z.email({ message: 'must be an e-mail address' }).optional(),
  /** A PEM file of the certificate authority the relay's certificate comes from (a private CA). */
  SMTP_TLS_CA_FILE: z.string().min(1).optional(),
  /** Seconds a console session lasts without use. */
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 3600),
});

export type StorageConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  storage: StorageConfig;
  publicUrl: string;
  admin: { email?: string; password?: string; token?: string };
  signup: 'open' | 'closed';
  logLevel: string;
  sessionTtlSeconds: number;
  /** false: the socket's address; true: one proxy; a number of proxies; or the proxies' addresses. */
  trustProxy: boolean | number | string[];
  /** Non-public addresses user-given URLs may be fetched from: none, all, or those of these CIDR ranges. */
  allowPrivateFetch: boolean | string[];
  /** Integrations' scripts (workers/sandbox): egress, its allow-list, processes kept, heap of each. */
  integrations?: {
    egress: boolean;
    egressAllow: string[];
    processesMax: number;
    heapMb: number;
    /** Where integrations' HTTP endpoints are served; undefined: nowhere. */
    origin?: string;
  };
  /**
   * Limits of imports, where they differ from IMPORT_LIMITS: IMPORT_ARCHIVE_MAX_BYTES and
   * IMPORT_TIME_LIMIT_SECONDS, or a test's small ones.
   */
  importLimits?: Partial<ImportLimits>;
  samlIdpInitiatedProviders: string[];
  requestTimeoutSeconds: number;
  /** Worker pool: threads (undefined: by core count) and each task's time limit. */
  workers: { threads?: number; timeoutSeconds: number };
  dnsServers: string[];
  /** SEARCH_LANGUAGE (default english); read at start, when the index is brought to it. */
  searchLanguage?: string;
  /** scrypt's cost (log2 N) of new password hashes; DEFAULT_PASSWORD_HASH_COST when unset. */
  passwordHashCost?: number;
  /** COLLAB_RECHECK_SECONDS; 2 when unset. */
  collabRecheckSeconds?: number;
  /** Bytes one file of a space may have (FILE_MAX_BYTES); FILE_UPLOAD_MAX_BYTES when unset. */
  fileMaxBytes?: number;
  /** GIT_SYNC_FILES_MAX: files a synced repository folder may have (GIT_FILES_MAX when unset). */
  gitFilesMax?: number;
  /** JOB_LEASE_SECONDS: how long a running job's lease lasts (renewed while its process lives); 60 when unset. */
  jobLeaseSeconds?: number;
  /** The SMTP relay (SMTP_*); absent: e-mail is kept in the outbox for the instance owner to read. */
  smtp?: SmtpConfig;
}

export interface SmtpConfig {
  host: string;
  port: number;
  tls: 'starttls' | 'implicit' | 'none';
  auth?: { user: string; pass: string };
  /** The From header, as written (`Docs <docs@example.com>`). */
  from: string;
  /** MAIL FROM: where bounces go. */
  envelopeFrom: string;
  /** The PEM text of a private certificate authority. */
  ca?: string;
}

/** The address of a From header (`Docs <docs@example.com>` or `docs@example.com`); undefined when it has none. */
export function addressOf(from: string): string | undefined {
  const m = /^\s*(?:"?[^"<>]*"?\s*)?<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from) ?? /^\s*([^<>\s"]+@[^<>\s"]+)\s*$/.exec(from);
  const address = m?.[1];
  return address && z.email().safeParse(address).success ? address : undefined;
}

function smtpFrom(e: z.infer<typeof envSchema>, problems: string[]): SmtpConfig | undefined {
  const given = [
    'SMTP_PORT',
    'SMTP_USER',
    'SMTP_PASSWORD',
    'SMTP_FROM',
    'SMTP_ENVELOPE_FROM',
    'SMTP_TLS_CA_FILE',
  ].filter((k) => e[k as keyof typeof e] !== undefined);
  if (!e.SMTP_HOST) {
    if (given.length) problems.push(`${given.join(', ')}: set SMTP_HOST too, or leave them unset`);
    return undefined;
  }
  if ((e.SMTP_USER === undefined) !== (e.SMTP_PASSWORD === undefined)) {
    problems.push('SMTP_USER and SMTP_PASSWORD: set both or neither');
  }
  const address = e.SMTP_FROM && addressOf(e.SMTP_FROM);
  if (!e.SMTP_FROM) problems.push('SMTP_FROM: required with SMTP_HOST (such as Docs <docs@example.com>)');
  else if (!address)
    problems.push('SMTP_FROM: must be an address, or a name and an address such as Docs <docs@example.com>');
  let ca: string | undefined;
  if (e.SMTP_TLS_CA_FILE) {
    try {
      ca = readFileSync(e.SMTP_TLS_CA_FILE, 'utf8');
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) problems.push('SMTP_TLS_CA_FILE: is not a PEM certificate file');
    } catch (err) {
      problems.push(`SMTP_TLS_CA_FILE: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return {
    host: e.SMTP_HOST,
    port: e.SMTP_PORT ?? (e.SMTP_TLS === 'implicit' ? 465 : 587),
    tls: e.SMTP_TLS,
    ...(e.SMTP_USER !== undefined && e.SMTP_PASSWORD !== undefined
      ? { auth: { user: e.SMTP_USER, pass: e.SMTP_PASSWORD } }
      : {}),
    from: e.SMTP_FROM ?? '',
    envelopeFrom: e.SMTP_ENVELOPE_FROM ?? address ?? '',
    ...(ca ? { ca } : {}),
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function storageFromUrl(url: string | undefined, dataDir: string): StorageConfig {
  if (url && /^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  if (url) return { kind: 'sqlite', file: url.replace(/^(sqlite|file):(\/\/)?/, '') };
  return { kind: 'sqlite', file: path.join(dataDir, 'docspace.sqlite') };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as most shells and env files intend.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither');
  }
  if (e.ADMIN_TOKEN && !e.ADMIN_EMAIL) problems.push('ADMIN_TOKEN: needs ADMIN_EMAIL and ADMIN_PASSWORD too');
  const storage = storageFromUrl(e.DATABASE_URL, e.DATA_DIR);
  if (storage.kind === 'sqlite' && !['english', 'simple'].includes(e.SEARCH_LANGUAGE)) {
    problems.push(
      'SEARCH_LANGUAGE: SQLite searches in english (stemming) or simple (none); other languages need PostgreSQL',
    );
  }
  const smtp = smtpFrom(e, problems);
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, '');
  const integrationsOrigin = e.INTEGRATIONS_ORIGIN?.replace(/\/+$/, '') ?? loopbackTwin(publicUrl);
  if (integrationsOrigin && new URL(integrationsOrigin).hostname === new URL(publicUrl).hostname) {
    problems.push(
      "INTEGRATIONS_ORIGIN: must be another host than PUBLIC_URL's (a browser sends a host's cookies to all its ports)",
    );
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    storage,
    publicUrl,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, token: e.ADMIN_TOKEN },
    signup: e.SIGNUP,
    logLevel: e.LOG_LEVEL,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    trustProxy:
      e.TRUST_PROXY === 'true'
        ? true
        : e.TRUST_PROXY === 'false'
          ? false
          : /^\d+$/.test(e.TRUST_PROXY)
            ? Number(e.TRUST_PROXY)
            : e.TRUST_PROXY.split(','),
    allowPrivateFetch:
      e.ALLOW_PRIVATE_FETCH === 'true'
        ? true
        : e.ALLOW_PRIVATE_FETCH === 'false'
          ? false
          : e.ALLOW_PRIVATE_FETCH.split(',').map((r) => r.trim()),
    integrations: {
      egress: e.INTEGRATIONS_EGRESS === 'on',
      egressAllow: e.INTEGRATIONS_EGRESS_ALLOW?.split(',') ?? [],
      processesMax: e.INTEGRATIONS_PROCESSES_MAX,
      heapMb: e.INTEGRATIONS_HEAP_MB,
      ...(integrationsOrigin ? { origin: integrationsOrigin } : {}),
    },
    samlIdpInitiatedProviders: e.SAML_IDP_INITIATED_PROVIDERS?.split(',') ?? [],
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    workers: { threads: e.WORKER_THREADS, timeoutSeconds: e.WORKER_TIMEOUT_SECONDS },
    dnsServers: e.DNS_SERVERS?.split(',') ?? [],
    searchLanguage: e.SEARCH_LANGUAGE,
    passwordHashCost: e.PASSWORD_HASH_COST,
    fileMaxBytes: e.FILE_MAX_BYTES,
    collabRecheckSeconds: e.COLLAB_RECHECK_SECONDS,
    gitFilesMax: e.GIT_SYNC_FILES_MAX,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    ...(smtp ? { smtp } : {}),
    ...(e.IMPORT_ARCHIVE_MAX_BYTES || e.IMPORT_TIME_LIMIT_SECONDS
      ? {
          importLimits: {
            ...(e.IMPORT_ARCHIVE_MAX_BYTES ? { uploadBytes: e.IMPORT_ARCHIVE_MAX_BYTES } : {}),
            ...(e.IMPORT_TIME_LIMIT_SECONDS ? { totalMs: e.IMPORT_TIME_LIMIT_SECONDS * 1000 } : {}),
          },
        }
      : {}),
  };
}

/**
 * The default origin of integrations' endpoints beside a loopback PUBLIC_URL: the other loopback name on the same
 * port (`localhost` for `127.0.0.1`, and back), a host of its own to the browser's cookies. Other servers say theirs.
 */
function loopbackTwin(publicUrl: string): string | undefined {
  const url = new URL(publicUrl);
  const twin = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname === '127.0.0.1' ? 'localhost' : undefined;
  if (!twin) return undefined;
  url.hostname = twin;
  return url.origin;
}
