import type { ImportLimits } from '../../../shared/contract/imports.js';
import { InvalidError } from '../errors.js';
import { fetchUrl, FetchRefusedError, type FetchResult, type PrivateAddresses } from '../../lib/fetch-url.js';
import { ImportLimitError, formatBytes } from './limits.js';
import { redactUrl } from '../../lib/redact-url.js';

/** What the importer's requests say they are (sites may tell crawlers apart in robots.txt). */
export const IMPORT_USER_AGENT = 'DocspaceImporter';

/** Progress as the import goes: resources converted of those found so far. */
export interface ProgressSink {
  stage(stage: 'fetching' | 'reading' | 'converting' | 'writing'): void;
  /** Found so far (grows while a website is crawled). */
  total(n: number): void;
  /** Converted so far. */
  imported(n: number): void;
}

/**
 * What every stage of one import shares: its limits, its clock (the import time limit), the field its errors
 * name (`url`, or `body` for an upload), its progress, and the one guarded fetch.
 */
export class ImportScope {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly started = Date.now();

  constructor(
    readonly field: 'url' | 'body',
    readonly limits: ImportLimits,
    readonly progress: ProgressSink,
    private readonly allowPrivate: PrivateAddresses,
  ) {
    this.timer = setTimeout(
      () => this.controller.abort(this.limitError('totalMs', 'the import did not finish in time')),
      limits.totalMs,
    );
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remainingMs(): number {
    return Math.max(1, this.limits.totalMs - (Date.now() - this.started));
  }

  /** Throws the import-time error once the time is up: called between steps. */
  check(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason as Error;
  }

  /** Ends the clock. */
  close(): void {
    clearTimeout(this.timer);
  }

  invalid(what: string): InvalidError {
    return new InvalidError(this.field, what);
  }

  limitError(limit: keyof ImportLimits, what: string): ImportLimitError {
    return new ImportLimitError(this.field, this.limits, limit, what);
  }

  /**
   * Fetches a URL through the guarded fetch (non-public addresses refused, by redirect and DNS too), within the
   * import's remaining time and at most `maxBytes` (`limit` names that limit when it is passed). Failures are
   * 400s naming the field: the page, archive or document could not be fetched, and why.
   */
  async fetch(
    url: string,
    maxBytes: number,
    limit: 'downloadBytes' | 'pageBytes' | 'uploadBytes',
    what = redactUrl(url),
    writeTo?: string,
  ): Promise<FetchResult> {
    this.check();
    try {
      return await fetchUrl(url, {
        maxBytes,
        allowPrivate: this.allowPrivate,
        deadlineMs: this.remainingMs(),
        signal: this.signal,
        headers: { 'user-agent': IMPORT_USER_AGENT, accept: '*/*' },
        maxRedirects: 5,
        ...(writeTo ? { writeTo } : {}),
      });
    } catch (err) {
      this.check();
      if (err instanceof FetchRefusedError && /larger than/.test(err.message)) {
        throw this.limitError(limit, `${what} is larger than ${formatBytes(maxBytes)}`);
      }
      if (err instanceof FetchRefusedError && /did not finish/.test(err.message)) {
        throw this.limitError('totalMs', `${what} did not download in time`);
      }
      throw new FetchFailedError(this.field, what, err);
    }
  }
}

/** A fetch that failed: the status the server answered, an address refused, a network error. */
export class FetchFailedError extends InvalidError {
  /** The HTTP status the server answered, when that is why. */
  readonly answered: number | undefined;
  constructor(field: string, what: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(field, `${what} could not be fetched: ${reason}`);
    this.answered = cause instanceof FetchRefusedError ? cause.status : undefined;
  }
}
