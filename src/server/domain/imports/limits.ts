import { InvalidError } from '../errors.js';
import { IMPORT_LIMIT_NAMES, IMPORT_LIMITS, type ImportLimits } from '../../../shared/contract/imports.js';

/** A size in the units people read: 50 MiB, 512 KiB, 900 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function formatLimit(limit: keyof ImportLimits, value: number): string {
  switch (limit) {
    case 'downloadBytes':
    case 'uploadBytes':
    case 'pageBytes':
    case 'uncompressedBytes':
    case 'fileBytes':
      return formatBytes(value);
    case 'totalMs':
      return `${Math.round(value / 100) / 10} s`;
    case 'zipEntries':
      return `${value} entries`;
    case 'websitePages':
      return `${value} pages`;
  }
}

/** The limits of an import: IMPORT_LIMITS, with the operator's (or a test's) values where given. */
export function importLimits(overrides: Partial<ImportLimits> = {}): ImportLimits {
  return { ...IMPORT_LIMITS, ...overrides };
}

/** `<limit name> limit: <value>`, the way every error names the limit that stopped an import. */
export function limitLabel(limits: ImportLimits, limit: keyof ImportLimits): string {
  return `${IMPORT_LIMIT_NAMES[limit]} limit: ${formatLimit(limit, limits[limit])}`;
}

/**
 * An import stopped by one of its limits: 400 naming the field (`url`, or `body` for an upload), what was met and
 * the limit, e.g. `url: the archive has more than 10000 entries (archive file count limit: 10000 entries)`.
 */
export class ImportLimitError extends InvalidError {
  constructor(
    field: string,
    limits: ImportLimits,
    readonly limit: keyof ImportLimits,
    what: string,
  ) {
    super(field, `${what} (${limitLabel(limits, limit)})`);
  }
}
