import { describe, expect, it } from 'vitest';
import { describeUserAgent, fileToBase64, photoProblem } from './photo';

describe('account photo', () => {
  it('accepts PNG, JPEG, GIF and WebP up to the limit', () => {
    expect(photoProblem({ type: 'image/png', size: 1000 })).toBeUndefined();
    expect(photoProblem({ type: 'image/webp', size: 256 * 1024 })).toBeUndefined();
  });

  it('refuses other types (SVG too) and larger files, in a full sentence', () => {
    expect(photoProblem({ type: 'image/svg+xml', size: 10 })).toBe('Choose a PNG, JPEG, GIF or WebP image.');
    expect(photoProblem({ type: 'image/png', size: 256 * 1024 + 1 })).toMatch(/larger than 256 KB/);
  });

  it('encodes a file as base64', async () => {
    expect(await fileToBase64(new Blob([new Uint8Array([0, 255, 1, 2])]))).toBe('AP8BAg==');
  });
});

describe('describeUserAgent', () => {
  it('names the browser and the system', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(
      describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:130.0) Gecko/20100101 Firefox/130.0'),
    ).toBe('Firefox on macOS');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/129.0 Safari/537.36 Edg/129.0',
      ),
    ).toBe('Edge on Windows');
  });

  it('falls back to the header itself, or says it is unknown', () => {
    expect(describeUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeUserAgent(undefined)).toBe('Unknown browser');
  });
});
