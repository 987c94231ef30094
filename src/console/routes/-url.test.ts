import { describe, expect, it } from 'vitest';
import { ID_MAX } from '../../shared/contract/constants';
import { isApiError } from '../lib/api-client';
import { boolean, consolePath, id, idParams, oneOf, pathParams, redirectSearch, searchParams, text } from './-url';

describe('path parameters', () => {
  it('keeps the ids it is asked for and drops the rest', () => {
    expect(idParams('spaceId')({ spaceId: 'abc', organizationId: 'o1' } as { spaceId: string })).toEqual({
      spaceId: 'abc',
    });
  });

  it('answers "not found" (404) for a value that can name nothing: empty or too long', () => {
    for (const spaceId of ['', 'x'.repeat(ID_MAX + 1)]) {
      let thrown: unknown;
      try {
        idParams('spaceId')({ spaceId });
      } catch (error) {
        thrown = error;
      }
      expect(isApiError(thrown, 404)).toBe(true);
    }
    expect(idParams('spaceId')({ spaceId: 'x'.repeat(ID_MAX) }).spaceId).toHaveLength(ID_MAX);
    expect(pathParams({ inviteId: 128 })({ inviteId: 'i'.repeat(128) }).inviteId).toHaveLength(128);
  });
});

describe('search parameters', () => {
  const read = searchParams<{ search: string; role: 'admin' | 'read'; published: boolean; member: string }>({
    search: text(10),
    role: oneOf(['admin', 'read'] as const),
    published: boolean,
    member: id,
  });

  it('keeps valid values (texts trimmed) and drops invalid ones, as if absent', () => {
    expect(read({ search: '  ada ', role: 'admin', published: false, member: 'u1' })).toEqual({
      search: 'ada',
      role: 'admin',
      published: false,
      member: 'u1',
    });
    expect(read({ search: '   ', role: 'owner', published: 'yes', member: 'x'.repeat(ID_MAX + 1) })).toEqual({});
    expect(read({ search: 'x'.repeat(11), role: 7, published: 1, member: '' })).toEqual({});
    // Numbers and objects the router parsed from the URL are not texts.
    expect(read({ search: 123, member: { id: 'u1' } })).toEqual({});
  });

  it('sends a redirect only to a path inside the console, never to another site', () => {
    expect(consolePath('/o/1/spaces/2?x=1')).toBe('/o/1/spaces/2?x=1');
    for (const unsafe of ['//evil.example', '/\\evil.example', 'https://evil.example', 'o/1', 42]) {
      expect(consolePath(unsafe)).toBeUndefined();
    }
    expect(redirectSearch({ redirect: '//evil.example' })).toEqual({});
  });
});
