import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Files worth compressing: text formats, from 1 KiB up (smaller ones gain less than their headers cost). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|xml)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside each compressible file under `dir`,
 * once at build time, so the server sends them to browsers that accept them without compressing per request.
 * A compressed copy no smaller than its file is not kept.
 */
export function precompress(dir: string): { files: number; bytes: number; br: number; gz: number } {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry.name)) {
        const data = fs.readFileSync(file);
        if (data.length < MIN_BYTES) continue;
        const br = zlib.brotliCompressSync(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        const gz = zlib.gzipSync(data, { level: 9 });
        totals.files++;
        totals.bytes += data.length;
        if (br.length < data.length) {
          fs.writeFileSync(`${file}.br`, br);
          totals.br += br.length;
        }
        if (gz.length < data.length) {
          fs.writeFileSync(`${file}.gz`, gz);
          totals.gz += gz.length;
        }
      }
    }
  };
  walk(dir);
  return totals;
}
