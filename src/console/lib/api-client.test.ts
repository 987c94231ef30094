import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { List } from '../../shared/contract';
import { api, ApiError, getAllPages, isSsoRequired, asSentence } from './api-client';
import { showServerError } from './form';

function answer(status: number, body?: unknown) {
  return new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('turns the error body into an ApiError with status, message and issues', async () => {
    const body = { error: { code: 400, message: 'Invalid title', issues: [{ path: 'title', message: 'Too long' }] } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(400, body)),
    );
    const error = await api.get('/spaces/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid title.',
      issues: [{ path: 'title', message: 'Too long.' }],
    });
  });

  it("keeps the error's reason, so enforced single sign-on is told apart from other refusals", async () => {
    const body = { error: { code: 403, message: 'Sign in through its provider', reason: 'sso-required' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(403, body)),
    );
    const error = await api.get('/orgs/o1').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, reason: 'sso-required' });
    expect(isSsoRequired(error)).toBe(true);
    expect(isSsoRequired(new ApiError(403, 'You need the admin role'))).toBe(false);
    expect(isSsoRequired(new ApiError(401, 'Signed out', [], undefined, 'sso-required'))).toBe(false);
  });

  it('gives a plain message when the error has no body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502 })),
    );
    await expect(api.get('/user')).rejects.toMatchObject({
      status: 502,
      message: 'The server had a problem. Try again.',
    });
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    );
    await expect(api.get('/user')).rejects.toMatchObject({ status: 0 });
  });

  it("reads a proxy's error page, or an error body with fields of the wrong kind, as a plain failure", async () => {
    for (const body of ['<html>Bad gateway</html>', { error: { code: 502 } }, { error: 'down' }, null]) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => answer(502, body ?? undefined)),
      );
      await expect(api.get('/user')).rejects.toMatchObject({ status: 502, issues: [] });
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        answer(400, {
          error: { code: 400, message: 'Invalid', issues: [{ path: 'title' }, { path: 'emoji', message: 'Bad' }, 7] },
        }),
      ),
    );
    await expect(api.get('/user')).rejects.toMatchObject({ issues: [{ path: 'emoji', message: 'Bad.' }] });
  });

  it('refuses an answer that is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 200 })),
    );
    await expect(api.get('/spaces/x')).rejects.toMatchObject({
      message: 'The server sent an answer that is not JSON.',
    });
  });

  it('follows next.page to the end of a list', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return url.includes('page=p2')
          ? answer(200, { items: ['c'], count: 3 })
          : answer(200, { items: ['a', 'b'], next: { page: 'p2' }, count: 3 });
      }),
    );
    expect(await getAllPages<z.ZodType<List<string>>>('/orgs', { nested: true })).toEqual(['a', 'b', 'c']);
    expect(urls).toEqual(['/v1/orgs?nested=true&limit=1000', '/v1/orgs?nested=true&limit=1000&page=p2']);
  });
});

describe('showServerError', () => {
  const form = () => {
    const errors: Record<string, string> = {};
    return {
      errors,
      setError: (name: string, error: { message?: string }) => void (errors[name] = error.message ?? ''),
      getValues: () => ({ title: 'x', emoji: '' }),
    };
  };

  it('puts each issue beside the field its path names', () => {
    const target = form();
    showServerError(target, new ApiError(400, 'Invalid', [{ path: 'title', message: 'Taken' }]));
    expect(target.errors).toEqual({ title: 'Taken' });
  });

  it('puts what concerns no field above the form', () => {
    const target = form();
    showServerError(target, new ApiError(409, 'The move would not change anything'));
    expect(target.errors).toEqual({ 'root.server': 'The move would not change anything' });
    const other = form();
    showServerError(other, new ApiError(400, 'Invalid', [{ path: 'position.before', message: 'Unknown sibling' }]));
    expect(other.errors).toEqual({ 'root.server': 'Invalid position.before: Unknown sibling' });
  });
});

describe('asSentence', () => {
  it('gives a field message a subject, a capital and a full stop', () => {
    expect(asSentence('is already the path of another section here: paths are unique among siblings')).toBe(
      'It is already the path of another section here: paths are unique among siblings.',
    );
    expect(asSentence('must be at most 50 characters')).toBe('It must be at most 50 characters.');
  });

  it('reads `field: is …` as a sentence about the field', () => {
    expect(asSentence('defaultLevel: must be one of inherit, read, edit')).toBe(
      'Default level must be one of inherit, read, edit.',
    );
    expect(asSentence('path: is already the path of another page here')).toBe(
      'Path is already the path of another page here.',
    );
  });

  it('leaves sentences as they are, and keeps their punctuation', () => {
    expect(asSentence('The space is locked: unlock it first.')).toBe('The space is locked: unlock it first.');
    expect(asSentence('Not found')).toBe('Not found.');
    expect(asSentence('Why?')).toBe('Why?');
    expect(asSentence('')).toBe('');
  });
});
