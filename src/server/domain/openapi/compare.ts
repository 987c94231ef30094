import { operationsOf, operationView, type Obj } from './reference.js';
import type { OpenApiComparison, OperationView, SchemaView } from '../../../shared/contract/openapi.js';

/**
 * What changed between two versions of a specification, operation by operation. A change is breaking when a
 * client written against the older version may fail against the newer one: an operation or a response removed,
 * a parameter or request property removed or newly required, a response property removed, a type narrowed (a
 * different type, or enum values removed). Additions of optional things are not breaking.
 */

type Change = { breaking: boolean; message: string };

const key = (op: { method: string; path: string }) => `${op.method.toUpperCase()} ${op.path}`;

/** Types a value of `before` may have that `after` refuses: "number" → "integer" narrows, the reverse widens. */
function narrowed(before: string | undefined, after: string | undefined): boolean {
  if (!before || !after || before === after) return false;
  const a = new Set(after.split(' | '));
  return before.split(' | ').some((t) => !(a.has(t) || (t === 'integer' && a.has('number'))));
}

function compareSchemas(
  before: SchemaView | undefined,
  after: SchemaView | undefined,
  where: string,
  direction: 'request' | 'response',
  out: Change[],
  depth = 0,
): void {
  if (!before || !after || depth > 8 || before.truncated || after.truncated) return;
  if (narrowed(before.type, after.type)) {
    // A request that now takes less, or a response that now returns something else, breaks its clients.
    out.push({ breaking: true, message: `${where}: type changed from ${before.type} to ${after.type}` });
  } else if (before.type && after.type && before.type !== after.type) {
    out.push({
      breaking: direction === 'response',
      message: `${where}: type widened from ${before.type} to ${after.type}`,
    });
  }
  if (before.enum && after.enum) {
    const removed = before.enum.filter((v) => !after.enum!.includes(v));
    const added = after.enum.filter((v) => !before.enum!.includes(v));
    if (removed.length) {
      out.push({
        breaking: direction === 'request',
        message: `${where}: enum value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`,
      });
    }
    if (added.length) {
      out.push({
        breaking: direction === 'response',
        message: `${where}: enum value${added.length > 1 ? 's' : ''} ${added.join(', ')} added`,
      });
    }
  } else if (!before.enum && after.enum && direction === 'request') {
    out.push({ breaking: true, message: `${where}: now limited to ${after.enum.join(', ')}` });
  }
  if (before.nullable && !after.nullable && direction === 'request') {
    out.push({ breaking: true, message: `${where}: no longer accepts null` });
  }
  const beforeProps = new Map((before.properties ?? []).map((p) => [p.name, p.schema]));
  const afterProps = new Map((after.properties ?? []).map((p) => [p.name, p.schema]));
  for (const [name, schema] of beforeProps) {
    const next = afterProps.get(name);
    const at = `${where}.${name}`;
    if (!next) {
      out.push({ breaking: true, message: `${at}: property removed` });
      continue;
    }
    if (direction === 'request' && !schema.required && next.required) {
      out.push({ breaking: true, message: `${at}: property is now required` });
    } else if (direction === 'response' && schema.required && !next.required) {
      out.push({ breaking: true, message: `${at}: property is no longer always returned` });
    }
    compareSchemas(schema, next, at, direction, out, depth + 1);
  }
  for (const [name, schema] of afterProps) {
    if (beforeProps.has(name)) continue;
    const required = direction === 'request' && schema.required === true;
    out.push({ breaking: required, message: `${where}.${name}: ${required ? 'required ' : ''}property added` });
  }
  compareSchemas(before.items, after.items, `${where}[]`, direction, out, depth + 1);
}

function compareOperations(before: OperationView, after: OperationView): Change[] {
  const out: Change[] = [];
  if (!before.deprecated && after.deprecated) out.push({ breaking: false, message: 'Deprecated' });
  const params = (op: OperationView) => new Map(op.parameters.map((p) => [`${p.in}:${p.name}`, p]));
  const b = params(before);
  const a = params(after);
  for (const [k, p] of b) {
    const next = a.get(k);
    const label = `${p.in} parameter "${p.name}"`;
    if (!next) {
      out.push({ breaking: true, message: `${label} removed` });
      continue;
    }
    if (!p.required && next.required) out.push({ breaking: true, message: `${label} is now required` });
    if (p.required && !next.required) out.push({ breaking: false, message: `${label} is now optional` });
    compareSchemas(p.schema, next.schema, label, 'request', out);
  }
  for (const [k, p] of a) {
    if (b.has(k)) continue;
    out.push({
      breaking: p.required,
      message: `${p.required ? 'Required' : 'Optional'} ${p.in} parameter "${p.name}" added`,
    });
  }
  if (before.requestBody && !after.requestBody) out.push({ breaking: true, message: 'Request body removed' });
  if (!before.requestBody && after.requestBody) {
    out.push({
      breaking: after.requestBody.required,
      message: `${after.requestBody.required ? 'Required' : 'Optional'} request body added`,
    });
  }
  if (before.requestBody && after.requestBody) {
    if (!before.requestBody.required && after.requestBody.required) {
      out.push({ breaking: true, message: 'Request body is now required' });
    }
    if (before.requestBody.contentType !== after.requestBody.contentType) {
      out.push({
        breaking: true,
        message: `Request body type changed from ${before.requestBody.contentType} to ${after.requestBody.contentType}`,
      });
    }
    compareSchemas(before.requestBody.schema, after.requestBody.schema, 'body', 'request', out);
  }
  const responses = (op: OperationView) => new Map(op.responses.map((r) => [r.status, r]));
  const rb = responses(before);
  const ra = responses(after);
  for (const [status, r] of rb) {
    const next = ra.get(status);
    if (!next) {
      out.push({ breaking: /^2/.test(status), message: `Response ${status} removed` });
      continue;
    }
    compareSchemas(r.schema, next.schema, `response ${status}`, 'response', out);
  }
  for (const status of ra.keys()) {
    if (!rb.has(status)) out.push({ breaking: false, message: `Response ${status} added` });
  }
  return out;
}

/** What operations may refer to beyond their own text: when all of it is the same, so is any unchanged operation. */
function shared(doc: Obj): string {
  const { paths: _paths, info: _info, ...rest } = doc;
  return JSON.stringify(rest);
}

/**
 * The operations added, removed and changed between two documents, reading only what may differ: when everything outside `paths` is the same in
 * both (schemas, shared parameters and responses, servers, security), an operation whose own text is the same is
 * unchanged and is not read at all. A large specification changes a few operations at a time.
 */
export function compareDocuments(
  from: { id: string; document: string },
  to: { id: string; document: string },
): OpenApiComparison {
  const a = JSON.parse(from.document) as Obj;
  const b = JSON.parse(to.document) as Obj;
  const sameShared = shared(a) === shared(b);
  const index = (doc: Obj) => new Map([...operationsOf(doc)].map((op) => [key(op), op]));
  const before = index(a);
  const after = index(b);
  const summary = (op: Obj) => (typeof op.summary === 'string' && op.summary ? { summary: op.summary } : {});
  const result: OpenApiComparison = { from: from.id, to: to.id, added: [], removed: [], changed: [], breaking: 0 };
  for (const [k, op] of before) {
    const next = after.get(k);
    if (!next) {
      result.removed.push({ method: op.method, path: op.path, ...summary(op.operation) });
      result.breaking++;
      continue;
    }
    const unchanged =
      sameShared &&
      JSON.stringify(op.operation) === JSON.stringify(next.operation) &&
      JSON.stringify(op.pathItem.parameters ?? null) === JSON.stringify(next.pathItem.parameters ?? null) &&
      JSON.stringify(op.pathItem.servers ?? null) === JSON.stringify(next.pathItem.servers ?? null);
    if (unchanged) continue;
    const changes = compareOperations(
      operationView(a, op.path, op.method, op.pathItem, op.operation),
      operationView(b, next.path, next.method, next.pathItem, next.operation),
    );
    if (changes.length) {
      result.changed.push({ method: next.method, path: next.path, ...summary(next.operation), changes });
      result.breaking += changes.filter((c) => c.breaking).length;
    }
  }
  for (const [k, op] of after) {
    if (!before.has(k)) result.added.push({ method: op.method, path: op.path, ...summary(op.operation) });
  }
  return result;
}
