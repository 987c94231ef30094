import { describe, expect, it } from 'vitest';
import { EXPANDED_MAX, parseOpenApi } from './parse.js';

const HEAD = 'openapi: 3.0.0\ninfo: {title: Aliases, version: "1"}\npaths: {}\n';

describe('parseOpenApi: YAML aliases', () => {
  it('refuses a document whose aliases expand past the text limit, without expanding it', async () => {
    // 1,000 aliases of a 50 kB string: a 60 kB text that expands to 50 MB.
    const text = `${HEAD}x-big: &big "${'a'.repeat(50_000)}"\nx-copies:\n${'  - *big\n'.repeat(1000)}`;
    expect(text.length).toBeLessThan(70_000);
    const result = await parseOpenApi(text);
    expect(result).toEqual({
      ok: false,
      errors: [{ code: 'TOO_LARGE', message: expect.stringMatching(/aliases expand the document to more than 10 MB/) }],
    });
  });

  it('refuses nested aliases ("billion laughs") by their expanded size', async () => {
    const levels = ['x-l0: &l0 "lol"'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `x-l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const result = await parseOpenApi(`${HEAD}${levels.join('\n')}\n`);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]!.code).toBe('TOO_LARGE');
  });

  it('expands aliases that stay within the limit, as the document stores them', async () => {
    const text = `${HEAD}x-note: &note "${'n'.repeat(1000)}"\nx-copies: [*note, *note, *note]\n`;
    const result = await parseOpenApi(text);
    expect(result.ok).toBe(true);
    const document = JSON.parse(result.ok ? result.document : '{}') as Record<string, unknown>;
    expect(document['x-copies']).toEqual(['n'.repeat(1000), 'n'.repeat(1000), 'n'.repeat(1000)]);
    expect(EXPANDED_MAX).toBe(10 * 1024 * 1024);
  });

  it('still reports a YAML syntax error with its place', async () => {
    const result = await parseOpenApi('openapi: 3.0.0\ninfo: [unclosed');
    expect(!result.ok && result.errors[0]).toMatchObject({
      code: 'SYNTAX',
      message: expect.stringMatching(/Not valid JSON or YAML/),
    });
  });
});
