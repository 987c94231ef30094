import type { FastifyInstance } from 'fastify';
import { DomainError, NotFoundError } from '../domain/errors.js';

/** Deepest nesting of arrays and objects accepted in a request's query or JSON body. */
export const MAX_INPUT_DEPTH = 100;

type Finding = { kind: 'nul' | 'depth'; path: string[] } | null;

/**
 * Walks a parsed input without recursion (so no input can exhaust the stack): the path of the first string
 * containing a NUL character, or of the first value nested deeper than MAX_INPUT_DEPTH.
 */
function inspect(root: unknown): Finding {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path };
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) return { kind: 'depth', path };
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    // Pushed in reverse so that the first offending field (in document order) is the one reported.
    for (let i = entries.length - 1; i >= 0; i--)
      stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return null;
}

/**
 * The common case, checked without building paths: nothing, or a flat object whose values are strings without
 * NUL (route parameters, most query strings). Anything else goes through `inspect`.
 */
function flatAndClean(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'string' || v.includes('\u0000')) return false;
  }
  return true;
}

/**
 * PostgreSQL text cannot hold NUL characters, and no field of this API needs one: an id containing one
 * names nothing (404), and any other text containing one is refused with 400 naming the field. Inputs nested
 * deeper than MAX_INPUT_DEPTH are refused with 400 before any route sees them.
 */
export function registerInputGuards(app: FastifyInstance): void {
  // A callback hook: it runs before every route, and an async one costs a promise each time.
  app.addHook('preValidation', (request, _reply, done) => {
    if (!flatAndClean(request.params) && inspect(request.params)) return done(new NotFoundError());
    const found =
      (flatAndClean(request.query) ? null : inspect(request.query)) ??
      (flatAndClean(request.body) ? null : inspect(request.body));
    if (!found) return done();
    const field = found.path.join('.') || 'body';
    const message =
      found.kind === 'nul' ? 'must not contain NUL characters' : `is nested deeper than ${MAX_INPUT_DEPTH} levels`;
    // A path 100 levels deep is long: name where it starts.
    const shown = found.kind === 'depth' ? `${found.path.slice(0, 3).join('.')}…` : field;
    done(new DomainError(400, `${shown}: ${message}`, [{ path: shown, message }]));
  });
}
