import type { z } from 'zod';
import { CSRF_COOKIE, CSRF_HEADER, LIST_LIMIT_MAX } from '../../shared/contract/constants';
import type { ErrorIssue, List } from '../../shared/contract';

/** Base of every API path; the console is served by the API server, so it is same-origin. */
export const API_BASE = '/v1';

/** An error answer of the API (`{error:{code,message,issues?,reason?}}`), or a failure to reach it (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly issues: ErrorIssue[];
  readonly requestId?: string;
  /** What the console acts on, when the server says (`sso-required`). */
  readonly reason?: string;

  constructor(status: number, message: string, issues: ErrorIssue[] = [], requestId?: string, reason?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.issues = issues;
    this.requestId = requestId;
    this.reason = reason;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/**
 * The organization enforces single sign-on and this session did not come through one of its identity providers
 * (403 `sso-required`): the way in is one of its providers, not a generic "no access".
 */
export function isSsoRequired(error: unknown): error is ApiError {
  return isApiError(error, 403) && error.reason === 'sso-required';
}

/** A message fit for people, whatever was thrown. */
/** How the server's messages about a field begin ("is already the path of…", "must be at most…"). */
const PREDICATE = /^(?:is|are|must|has|have|should|cannot|can|was|were|does|do|needs?|names?|expected|contains?)\b/;

/**
 * The server's message as a sentence the console can show on its own: a field's message ("is already taken")
 * gets a subject ("It is already taken."), `field: is …` reads "Field is …", and each starts with a capital and
 * ends with a full stop.
 */
export function asSentence(message: string): string {
  let text = message.trim();
  if (!text) return text;
  const fielded = /^([A-Za-z_][\w.[\]-]*): ([^]*)$/.exec(text);
  if (fielded && PREDICATE.test(fielded[2]!)) {
    const field = fielded[1]!
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[._]/g, ' ')
      .toLowerCase();
    text = `${field} ${fielded[2]}`;
  } else if (PREDICATE.test(text)) text = `it ${text}`;
  text = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?…)"”]$/.test(text) ? text : `${text}.`;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

const FALLBACK_MESSAGES: Record<number, string> = {
  400: 'The request was not valid.',
  401: 'You are not signed in.',
  403: 'You do not have permission to do this.',
  404: 'Not found.',
  409: 'This conflicts with the current state. Reload and try again.',
  413: 'The request is too large.',
  429: 'Too many requests. Wait a moment and try again.',
};

function fallbackMessage(status: number): string {
  return (
    FALLBACK_MESSAGES[status] ??
    (status >= 500 ? 'The server had a problem. Try again.' : `Request failed (${status}).`)
  );
}

/** A cookie of the console's origin that scripts may read (the CSRF cookie). */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export type Query = Record<string, string | number | boolean | undefined>;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `If-Match` for an edit based on a known revision. */
  headers?: Record<string, string>;
  /** Bytes sent as the request body itself (an upload), with `contentType`, instead of JSON. */
  upload?: { data: Blob; contentType: string };
}

function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function send(method: Method, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.upload) headers['content-type'] = options.upload.contentType;
  if (method !== 'GET') {
    // The session cookie authenticates the console; mutations prove they come from it with the CSRF cookie's value.
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.upload
        ? options.upload.data
        : options.body === undefined
          ? undefined
          : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = readErrorBody(body);
  if (!error) return new ApiError(response.status, fallbackMessage(response.status));
  return new ApiError(
    response.status,
    error.message ? asSentence(error.message) : fallbackMessage(response.status),
    error.issues.map((issue) => ({ ...issue, message: asSentence(issue.message) })),
    error.requestId,
    error.reason,
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The API's error body (`{error:{code,message,issues?,reason?,requestId?}}`, shared/errors.ts), read field by
 * field: an error answer may come from a proxy in front of the server (an HTML page, an empty body) instead.
 */
export function readErrorBody(
  body: unknown,
): { message: string; issues: ErrorIssue[]; reason?: string; requestId?: string } | undefined {
  const error = (body as { error?: unknown } | null | undefined)?.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null || typeof error.message !== 'string') return undefined;
  const issues = Array.isArray(error.issues)
    ? (error.issues as unknown[]).flatMap((issue) => {
        const { path, message } = (issue ?? {}) as Record<string, unknown>;
        return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
      })
    : [];
  return { message: error.message, issues, reason: text(error.reason), requestId: text(error.requestId) };
}

/**
 * The answer's body as the contract's schema `S` describes it. Not checked again here: the server writes every
 * answer through that same schema (src/server/plugins/serializer.ts), and its test suite checks each answer
 * against it (`checkResponses`). Checking again in the browser put zod and every schema into each first visit
 * (about 33 kB compressed of 136).
 */
async function readBody<S extends z.ZodType>(response: Response): Promise<z.output<S>> {
  try {
    return (await response.json()) as z.output<S>;
  } catch {
    throw new ApiError(response.status, 'The server sent an answer that is not JSON.');
  }
}

/** Calls over the contract, typed by the schema of each answer: `api.get<typeof spaceSchema>(path)`. */
export const api = {
  async get<S extends z.ZodType>(path: string, options: Omit<RequestOptions, 'body'> = {}) {
    return readBody<S>(await send('GET', path, options));
  },
  async post<S extends z.ZodType>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}) {
    return readBody<S>(await send('POST', path, { ...options, body }));
  },
  async patch<S extends z.ZodType>(path: string, body: unknown) {
    return readBody<S>(await send('PATCH', path, { body }));
  },
  async put<S extends z.ZodType>(path: string, body: unknown) {
    return readBody<S>(await send('PUT', path, { body }));
  },
  /** A DELETE answered with a body (what it did). */
  async delete<S extends z.ZodType>(path: string) {
    return readBody<S>(await send('DELETE', path, {}));
  },
  /** POST of a file as the request body itself (the server reads its bytes, not JSON). */
  async upload<S extends z.ZodType>(
    path: string,
    upload: { data: Blob; contentType: string },
    options: Omit<RequestOptions, 'body' | 'upload'> = {},
  ) {
    return readBody<S>(await send('POST', path, { ...options, upload }));
  },
  /** A call answered with text (an HTML page, say), not JSON. */
  async text(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<string> {
    return (await send(method, path, { body, signal, headers: { accept: 'text/html' } })).text();
  },
  /** A call whose answer has no body worth reading (204, 205). */
  async send(method: Method, path: string, body?: unknown): Promise<void> {
    await send(method, path, { body });
  },
};

/** Every item of a keyset-paginated list, following `next.page` until the last page. */
export async function getAllPages<S extends z.ZodType<List<unknown>>>(
  path: string,
  query: Query = {},
  signal?: AbortSignal,
): Promise<Array<z.output<S>['items'][number]>> {
  const items: Array<z.output<S>['items'][number]> = [];
  let page: string | undefined;
  do {
    const list = await api.get<S>(path, { query: { ...query, limit: LIST_LIMIT_MAX, page }, signal });
    items.push(...list.items);
    page = list.next?.page;
  } while (page);
  return items;
}
