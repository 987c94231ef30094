import { ID_MAX } from '../../shared/contract/constants';
import { ApiError } from '../lib/api-client';

/*
 * Reading the URL: path parameters and search parameters, checked by the contract's limits. The route files are
 * part of every first download, so these are small functions over the contract's constants, not zod schemas
 * (zod and the schemas are about 33 kB compressed, which no first visit needs).
 */

/**
 * Path parameters of at most `limits[key]` characters (and at least one): a longer value can name nothing, so the
 * screen says "not found" (404) without asking the server.
 */
export function pathParams<K extends string>(limits: Record<K, number>) {
  return (params: Record<K, string>): Record<K, string> => {
    const checked = {} as Record<K, string>;
    for (const key of Object.keys(limits) as K[]) {
      const value = params[key];
      if (typeof value !== 'string' || value.length === 0 || value.length > limits[key]) {
        throw new ApiError(404, 'Not found.');
      }
      checked[key] = value;
    }
    return checked;
  };
}

/** Path parameters that are ids (the contract's `idSchema`: 1 to ID_MAX characters). */
export function idParams<K extends string>(...keys: K[]) {
  return pathParams(Object.fromEntries(keys.map((key) => [key, ID_MAX])) as Record<K, number>);
}

/** Reads one search parameter: its value when valid, otherwise undefined (the screen's default). */
type Reader<T> = (value: unknown) => T | undefined;

/**
 * A route's `validateSearch`: each parameter read by its reader; an invalid one is dropped, as if absent, so a
 * hand-edited or outdated URL opens the screen with its defaults instead of an error.
 */
export function searchParams<T extends object>(readers: { [K in keyof T]-?: Reader<T[K]> }) {
  return (search: Record<string, unknown>): Partial<T> => {
    const read: Partial<T> = {};
    for (const key of Object.keys(readers) as (keyof T)[]) {
      const value = readers[key](search[key as string]);
      if (value !== undefined) read[key] = value;
    }
    return read;
  };
}

/** A text of 1 to `max` characters, as the contract's `z.string().trim().min(1).max(max)`: trimmed. */
export function text(max: number): Reader<string> {
  return (value) => {
    if (typeof value !== 'string') return undefined;
    const trimmed = value.trim();
    return trimmed.length > 0 && trimmed.length <= max ? trimmed : undefined;
  };
}

/** An id (1 to ID_MAX characters). */
export const id: Reader<string> = (value) =>
  typeof value === 'string' && value.length > 0 && value.length <= ID_MAX ? value : undefined;

/** One of `values`. */
export function oneOf<V extends string>(values: readonly V[]): Reader<V> {
  return (value) => (values.includes(value as V) ? (value as V) : undefined);
}

/** `true` or `false` (the router reads `?published=true` as a boolean). */
export const boolean: Reader<boolean> = (value) => (typeof value === 'boolean' ? value : undefined);

/** A path inside the console only, never another site (`//evil.example`, `/\evil.example`). */
export const consolePath: Reader<string> = (value) =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : undefined;

/** `?redirect=`: where to go once signed in. */
export const redirectSearch = searchParams<{ redirect: string }>({ redirect: consolePath });
