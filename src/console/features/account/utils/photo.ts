import { USER_PHOTO_BYTES_MAX, USER_PHOTO_TYPES } from '../../../../shared/contract';

/** Why this file cannot be an account photo (as the server would refuse it), or undefined when it can. */
export function photoProblem(file: { type: string; size: number }): string | undefined {
  if (!(USER_PHOTO_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a PNG, JPEG, GIF or WebP image.';
  }
  if (file.size > USER_PHOTO_BYTES_MAX) {
    return `The image is larger than ${Math.round(USER_PHOTO_BYTES_MAX / 1024)} KB: choose a smaller one.`;
  }
  return undefined;
}

/** The file's bytes as base64 (what `PATCH /v1/user` takes as `photo`). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A short description of a browser from its User-Agent ("Firefox on Linux"), or the header itself. */
export function describeUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent;
}
