import { isAlias, isCollection, isPair, isScalar, parseDocument, type Document } from 'yaml';
import type { validate } from '@readme/openapi-parser';
import { OPENAPI_TEXT_MAX } from '../../../shared/contract/openapi.js';

/**
 * Reading a specification's text: JSON or YAML, then checked against the Swagger 2.0, OpenAPI 3.0 or 3.1 schema
 * by @readme/openapi-parser (maintained, with readable messages), with `$ref`s resolved within the document only:
 * a reference to another file or URL is never fetched. Runs in a worker thread (see workers/tasks.ts).
 */

export interface ParseProblem {
  message: string;
  code?: string;
}

export type ParseResult =
  | {
      ok: true;
      /** The document as parsed, `$ref`s kept, as JSON. */
      document: string;
      /** "openapi 3.1.0" or "swagger 2.0". */
      specification: string;
      title: string;
      version: string;
    }
  | { ok: false; errors: ParseProblem[] };

/** Problems reported at most (the count says how many there were). */
const ERRORS_MAX = 20;
const MESSAGE_MAX = 500;
/** YAML aliases a document may use: a "billion laughs" document expands without bound otherwise. */
const YAML_ALIASES_MAX = 1000;
/**
 * What a YAML document's aliases may expand it to, in characters of its JSON: as much as a specification's text may
 * hold. Each alias is a copy of what it names once parsed (the stored document, the reference and every renderer
 * read it expanded): 1,000 aliases of a 50 kB string made a 74 kB text a 51 MB document.
 */
export const EXPANDED_MAX = OPENAPI_TEXT_MAX;

class TooLargeError extends Error {}

function firstLines(message: string): string {
  // The parser appends a code frame after a blank line: the first paragraph says what is wrong and where.
  const text = message.split('\n\n')[0]!.trim();
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}

function readText(text: string): unknown {
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON after all: YAML is a superset, and its parser says where the problem is.
    }
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0]!;
  const size = expandedSize(doc);
  if (size > EXPANDED_MAX) {
    throw new TooLargeError(
      `Its aliases expand the document to more than ${EXPANDED_MAX / 1024 / 1024} MB (the most a specification may hold): write the repeated parts once, as components referenced with $ref`,
    );
  }
  return doc.toJS({ maxAliasCount: YAML_ALIASES_MAX });
}

/**
 * The length of the document's JSON once its aliases are expanded, counted without expanding them (each node's size
 * once, an alias as the size of what it names) and stopped as soon as it passes EXPANDED_MAX.
 */
function expandedSize(doc: Document.Parsed): number {
  const sizes = new WeakMap<object, number>();
  const open = new WeakSet<object>();
  const sizeOf = (node: unknown): number => {
    if (node === null || node === undefined) return 4;
    if (typeof node !== 'object') return String(node).length + 2;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // An alias inside what it names would expand for ever (the parser refuses it too).
    if (open.has(node)) throw new TooLargeError('An alias refers to a node that contains it');
    open.add(node);
    let total = 2;
    if (isAlias(node)) total = sizeOf(node.resolve(doc));
    else if (isScalar(node)) total = String(node.value).length + 2;
    else if (isPair(node)) total = sizeOf(node.key) + sizeOf(node.value) + 2;
    else if (isCollection(node)) {
      for (const item of node.items) {
        total += sizeOf(item) + 1;
        if (total > EXPANDED_MAX) break;
      }
    }
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  return sizeOf(doc.contents);
}

export async function parseOpenApi(text: string): Promise<ParseResult> {
  let value: unknown;
  try {
    value = readText(text);
  } catch (err) {
    if (err instanceof TooLargeError) return { ok: false, errors: [{ code: 'TOO_LARGE', message: err.message }] };
    return {
      ok: false,
      errors: [{ code: 'SYNTAX', message: `Not valid JSON or YAML: ${firstLines((err as Error).message)}` }],
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [{ code: 'SYNTAX', message: 'The document is not an object' }] };
  }
  const doc = value as Record<string, unknown>;
  const declared = typeof doc.openapi === 'string' ? doc.openapi : typeof doc.swagger === 'string' ? doc.swagger : '';
  if (!declared) {
    return {
      ok: false,
      errors: [
        {
          code: 'INVALID_SPECIFICATION',
          message: 'Not an OpenAPI or Swagger document: it has no "openapi" (3.x) or "swagger" (2.0) field',
        },
      ],
    };
  }
  const specification = `${typeof doc.openapi === 'string' ? 'openapi' : 'swagger'} ${declared}`;
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    // Loaded by the first specification processed, not at start (the parser and its schemas are a few MB of code).
    const parser = await import('@readme/openapi-parser');
    result = await parser.validate(structuredClone(doc) as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
      timeoutMs: 60_000,
    });
  } catch (err) {
    return { ok: false, errors: [{ code: 'INVALID_SPECIFICATION', message: firstLines((err as Error).message) }] };
  }
  if (!result.valid) {
    const errors = result.errors
      .slice(0, ERRORS_MAX)
      .map((e) => ({ code: 'INVALID_SPECIFICATION', message: firstLines(e.message) }));
    const more = result.errors.length - errors.length + result.additionalErrors;
    if (more > 0) errors.push({ code: 'INVALID_SPECIFICATION', message: `…and ${more} more problems` });
    return { ok: false, errors };
  }
  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown };
  return {
    ok: true,
    document: JSON.stringify(doc),
    specification,
    title: typeof info.title === 'string' ? info.title : '',
    version: typeof info.version === 'string' ? info.version : String(info.version ?? ''),
  };
}
