import type { FastifyInstance } from 'fastify';
import { DomainError, NotFoundError } from '../domain/errors.js';

/** Path of the first string containing a NUL character, or null. */
function findNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = findNul(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL characters, and no field of this API needs one: an id containing one
 * names nothing (404), and any other text containing one is refused with 400 naming the field.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (findNul(request.params)) throw new NotFoundError();
    const found = findNul(request.query) ?? findNul(request.body);
    if (found) {
      const field = found.join('.') || 'body';
      throw new DomainError(400, `${field}: must not contain NUL characters`, [
        { path: field, message: 'must not contain NUL characters' },
      ]);
    }
  });
}
