import { Readable } from 'node:stream';
import type { OpenBlob } from '../storage/repos/objects.js';

/** A blob as a reply's body: its bytes when it is one row, else a stream reading its chunks one at a time. */
export function blobBody(blob: OpenBlob): Buffer | Readable {
  return blob.inline ?? Readable.from(blob.chunks());
}
