import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('drops credentials, the query and the fragment; keeps the address readers need', () => {
    expect(redactUrl('https://user:s3cret@example.com/docs.zip?token=abc&x=1#part')).toBe(
      'https://example.com/docs.zip?…',
    );
    expect(redactUrl('https://example.com:8443/a/b/')).toBe('https://example.com:8443/a/b/');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
