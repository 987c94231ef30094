import { imageSize } from 'image-size';
import { InvalidError } from './errors.js';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * A base64 image decoded and checked: PNG, JPEG, GIF or WebP (SVG is refused: it can carry script). Used for the
 * images users upload and the server stores (integration icons and previews, account photos).
 */
export function decodeImage(base64: string, field: string, maxBytes: number): { data: Buffer; contentType: string } {
  const data = Buffer.from(base64, 'base64');
  if (data.length === 0) throw new InvalidError(field, 'The image is empty');
  if (data.length > maxBytes)
    throw new InvalidError(field, `The image is larger than ${Math.round(maxBytes / 1024)} KB`);
  let type: string | undefined;
  try {
    type = imageSize(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).type;
  } catch {
    type = undefined;
  }
  const contentType = type ? IMAGE_TYPES[type] : undefined;
  if (!contentType) throw new InvalidError(field, 'Not a PNG, JPEG, GIF or WebP image');
  return { data, contentType };
}
