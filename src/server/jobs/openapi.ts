import { createHash } from 'node:crypto';
import type { Db } from '../storage/db.js';
import { transaction } from '../storage/db.js';
import * as repo from '../storage/repos/openapi.js';
import { fetchUrl, FetchRefusedError, type PrivateAddresses } from '../lib/fetch-url.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import { workers } from '../workers/pool.js';
import { ServiceUnavailableError } from '../domain/errors.js';
import type { JobHandler } from './queue.js';
import { ALWAYS_IN_A_WORKER, type OpenApiJobPayload } from '../domain/openapi/service.js';
import { OPENAPI_TEXT_MAX, type OpenApiErrorCode } from '../../shared/contract/openapi.js';
import { redactUrl } from '../lib/redact-url.js';

/**
 * Processing of a specification's source: fetched (through the guarded fetch) when it is a URL, read and checked
 * in a worker thread, then kept as a new version when its text differs from the latest one. Safe to run twice:
 * a job whose spec got a newer source since (a newer `source_revision`) changes nothing.
 *
 * Failures users can fix (the URL cannot be fetched, the text is not a valid specification) end the processing
 * with `lastProcessErrorCode` and messages; other failures (the database, a worker crash) throw, so the queue
 * tries again.
 */

export interface OpenApiJobOptions {
  allowPrivate: PrivateAddresses;
  /** Deadline of the fetch of a URL source. */
  fetchDeadlineMs?: number;
  /** Time a document may take to be read and checked. */
  parseTimeoutMs?: number;
}

class ProcessingError extends Error {
  constructor(
    readonly code: OpenApiErrorCode,
    readonly errors: Array<{ message: string; code?: string }>,
  ) {
    super(errors[0]?.message ?? code);
  }
}

function filenameOf(url: string | null, text: string): string {
  const fallback = /^\s*[{[]/.test(text) ? 'openapi.json' : 'openapi.yaml';
  if (!url) return fallback;
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return /^[\w.-]{1,200}$/.test(last) && /\.(ya?ml|json)$/i.test(last) ? last : fallback;
  } catch {
    return fallback;
  }
}

async function readSource(spec: repo.OpenApiSpecRow, options: OpenApiJobOptions): Promise<string> {
  if (spec.source_text !== null) return spec.source_text;
  const url = spec.source_url!;
  try {
    const result = await fetchUrl(url, {
      maxBytes: OPENAPI_TEXT_MAX,
      allowPrivate: options.allowPrivate,
      deadlineMs: options.fetchDeadlineMs ?? 30_000,
      headers: { Accept: 'application/yaml, application/json, text/yaml, text/plain, */*' },
    });
    return result.data.toString('utf8');
  } catch (err) {
    const message = (err as Error).message;
    if (err instanceof FetchRefusedError && /did not finish within/.test(message)) {
      throw new ProcessingError('FETCH_TIMEOUT', [
        { code: 'FETCH_TIMEOUT', message: `Fetching ${redactUrl(url)}: ${message}` },
      ]);
    }
    throw new ProcessingError('FETCH_ERROR', [
      { code: 'FETCH_ERROR', message: `Fetching ${redactUrl(url)}: ${message}` },
    ]);
  }
}

export function openApiJobHandler(db: Db, options: OpenApiJobOptions): JobHandler {
  const record = async (payload: OpenApiJobPayload, code: OpenApiErrorCode, errors: ProcessingError['errors']) => {
    const now = nowIso();
    await repo.updateSpecAtRevision(db, payload.specId, payload.revision, {
      processing_state: 'complete',
      last_processed_at: now,
      last_error_code: code,
      last_errors: JSON.stringify(errors),
      updated_at: now,
    });
  };
  return {
    attempts: 3,
    async run(raw) {
      const payload = raw as OpenApiJobPayload;
      const spec = await repo.findSpecById(db, payload.specId);
      if (!spec || spec.source_revision !== payload.revision) return; // deleted, or a newer source is queued
      // Processed already (its process died before it could say so): the text went into the version.
      if (spec.source_text === null && spec.source_url === null) return;
      await repo.updateSpecAtRevision(db, spec.id, payload.revision, { processing_state: 'progress' });
      let text: string;
      try {
        text = await readSource(spec, options);
      } catch (err) {
        if (err instanceof ProcessingError) return record(payload, err.code, err.errors);
        throw err;
      }
      // Always in a worker, with a time limit: a small document can still take long to check. Running out of
      // time (or memory) is the document's doing, not a passing failure: it is reported, not tried again.
      const timeoutMs = options.parseTimeoutMs ?? 60_000;
      let parsed;
      try {
        parsed = await workers.run('parseOpenApi', text, ALWAYS_IN_A_WORKER, {
          timeoutMs,
          organization: spec.organization_id,
        });
      } catch (err) {
        if (err instanceof ServiceUnavailableError && /^Stopped/.test(err.message)) {
          return record(payload, 'PARSE_ERROR', [
            {
              code: 'TOO_COMPLEX',
              message: `The document could not be checked within ${timeoutMs / 1000} s or the memory allowed: simplify its schemas (many references to references)`,
            },
          ]);
        }
        throw err;
      }
      if (!parsed.ok) return record(payload, 'PARSE_ERROR', parsed.errors);
      const hash = createHash('sha256').update(text).digest('hex');
      await transaction(db, async (tx) => {
        const current = await repo.findSpecById(tx, spec.id);
        if (!current || current.source_revision !== payload.revision) return;
        const latest = current.last_version_id
          ? await repo.findVersionMeta(tx, spec.id, current.last_version_id)
          : undefined;
        const now = nowIso();
        let versionId = current.last_version_id;
        if (!latest || latest.hash !== hash) {
          versionId = newId();
          await repo.insertVersion(tx, {
            id: versionId,
            spec_id: spec.id,
            hash,
            filename: filenameOf(spec.source_url, text),
            source_url: spec.source_url,
            text,
            document: parsed.document,
            specification: parsed.specification,
            created_at: now,
          });
        }
        await repo.updateSpecAtRevision(tx, spec.id, payload.revision, {
          processing_state: 'complete',
          last_version_id: versionId,
          last_processed_at: now,
          last_error_code: null,
          last_errors: null,
          // The version holds the text now.
          source_text: null,
          updated_at: now,
        });
      });
    },
    async giveUp(raw, error) {
      const payload = raw as OpenApiJobPayload;
      const message = error instanceof Error ? error.message : String(error);
      await record(payload, 'PARSE_ERROR', [{ code: 'PROCESSING_FAILED', message: `Processing failed: ${message}` }]);
    },
  };
}
