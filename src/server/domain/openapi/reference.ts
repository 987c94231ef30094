import {
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiReferencePage,
  type OperationView,
  type SchemaView,
} from '../../../shared/contract/openapi.js';

/**
 * A processed document (Swagger 2.0 or OpenAPI 3.x, `$ref`s kept) turned into what a reference shows: each
 * operation with its parameters, request body and responses, schemas expanded to a bounded depth and size (a
 * schema that refers to itself is shown once, then by name). Runs in a worker thread for big documents.
 */

export type Obj = Record<string, unknown>;

/** Levels of nested properties shown. */
const DEPTH_MAX = 8;
/** Schema nodes one operation shows at most; past it, schemas are cut (marked `truncated`). */
const NODES_MAX = 1500;
/** Properties shown of one schema; the rest are left out (the schema is marked `truncated`). */
const PROPERTIES_MAX = 200;
/** allOf merges one operation may do (each counts as work even when its result is cached). */
const MERGES_MAX = 2000;
const TEXT_MAX = 4000;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  return v.length > TEXT_MAX ? `${v.slice(0, TEXT_MAX - 1)}…` : v;
}

function scalar(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text === undefined ? undefined : text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Resolves a local `$ref` ("#/components/schemas/Pet"); undefined for one that leaves the document. */
function lookup(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = safeDecode(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Obj)[key];
  }
  return node;
}

/** A `$ref` part decoded, or as written when it is not valid percent-encoding. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function refName(ref: string): string {
  return safeDecode(ref.slice(ref.lastIndexOf('/') + 1));
}

/** Follows `$ref`s (a chain of them too) to the object they name. */
function deref(doc: Obj, value: unknown, seen = 0): { value: Obj | undefined; ref?: string } {
  if (!isObj(value)) return { value: undefined };
  if (typeof value.$ref === 'string' && seen < 20) {
    const inner = deref(doc, lookup(doc, value.$ref), seen + 1);
    return { value: inner.value, ref: inner.ref ?? value.$ref };
  }
  return { value };
}

class SchemaReader {
  nodes = 0;
  merges = 0;
  /** allOf merges of named schemas, kept: a schema referred to many times is merged once. */
  private readonly merged = new Map<string, Obj>();
  constructor(private readonly doc: Obj) {}

  read(input: unknown, depth = 0, stack: string[] = []): SchemaView | undefined {
    if (!isObj(input)) return undefined;
    this.nodes++;
    const { value, ref } = deref(this.doc, input);
    const name = ref ? refName(ref) : undefined;
    if (!value) return name ? { ref: name, truncated: true } : undefined;
    if (ref && stack.includes(ref)) return { ref: name, type: typeString(value), truncated: true };
    if (depth > DEPTH_MAX || this.nodes > NODES_MAX || this.merges > MERGES_MAX) {
      return { ref: name, type: typeString(value), truncated: true };
    }
    const path = ref ? [...stack, ref] : stack;
    const cached = ref ? this.merged.get(ref) : undefined;
    const merged = cached ?? this.mergeAllOf(value, path);
    if (ref && !cached) this.merged.set(ref, merged);
    const view: SchemaView = {};
    const type = typeString(merged);
    if (type) view.type = type;
    if (name) view.ref = name;
    const set = <K extends keyof SchemaView>(key: K, v: SchemaView[K] | undefined) => {
      if (v !== undefined) view[key] = v;
    };
    set('format', str(merged.format));
    set('title', str(merged.title));
    set('description', str(merged.description));
    if (Array.isArray(merged.enum)) view.enum = merged.enum.slice(0, 100).map((v) => scalar(v) ?? 'null');
    if (merged.nullable === true || (Array.isArray(merged.type) && merged.type.includes('null'))) view.nullable = true;
    if (merged.deprecated === true) view.deprecated = true;
    set('example', scalar(merged.example ?? (Array.isArray(merged.examples) ? merged.examples[0] : undefined)));
    set('default', scalar(merged.default));
    if (isObj(merged.properties)) {
      const required = new Set(
        Array.isArray(merged.required) ? merged.required.filter((r) => typeof r === 'string') : [],
      );
      view.properties = [];
      const entries = Object.entries(merged.properties);
      if (entries.length > PROPERTIES_MAX) view.truncated = true;
      for (const [prop, schema] of entries.slice(0, PROPERTIES_MAX)) {
        const child = this.read(schema, depth + 1, path) ?? {};
        if (required.has(prop)) child.required = true;
        view.properties.push({ name: prop, schema: child });
      }
    }
    if (merged.items !== undefined) set('items', this.read(merged.items, depth + 1, path));
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const options = merged[kind];
      if (Array.isArray(options) && options.length) {
        view.variants = {
          kind,
          options: options.slice(0, 20).map((o) => this.read(o, depth + 1, path) ?? {}),
        };
        break;
      }
    }
    return view;
  }

  /** allOf parts merged into one schema: properties and required lists joined. */
  private mergeAllOf(value: Obj, stack: string[]): Obj {
    if (!Array.isArray(value.allOf)) return value;
    if (++this.merges > MERGES_MAX) return { ...value, allOf: undefined };
    const merged: Obj = { ...value };
    delete merged.allOf;
    const properties: Obj = { ...(isObj(value.properties) ? value.properties : {}) };
    const required = new Set<unknown>(Array.isArray(value.required) ? value.required : []);
    for (const part of value.allOf.slice(0, 20)) {
      const { value: resolved, ref } = deref(this.doc, part);
      if (!resolved || (ref && stack.includes(ref))) continue;
      const known = ref ? this.merged.get(ref) : undefined;
      const inner = known ?? this.mergeAllOf(resolved, ref ? [...stack, ref] : stack);
      if (ref && !known) this.merged.set(ref, inner);
      if (isObj(inner.properties)) Object.assign(properties, inner.properties);
      if (Array.isArray(inner.required)) for (const r of inner.required) required.add(r);
      for (const key of ['type', 'description', 'title', 'format', 'items', 'enum', 'oneOf', 'anyOf']) {
        if (merged[key] === undefined && inner[key] !== undefined) merged[key] = inner[key];
      }
    }
    if (Object.keys(properties).length) merged.properties = properties;
    if (required.size) merged.required = [...required];
    if (merged.type === undefined && Object.keys(properties).length) merged.type = 'object';
    return merged;
  }
}

function typeString(schema: Obj): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const types = t.filter((x): x is string => typeof x === 'string' && x !== 'null');
    return types.length ? types.join(' | ') : undefined;
  }
  if (isObj(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function isSwagger(doc: Obj): boolean {
  return typeof doc.swagger === 'string';
}

function serversOf(doc: Obj, pathItem: Obj, operation: Obj): string[] {
  if (isSwagger(doc)) {
    const host = typeof doc.host === 'string' ? doc.host : '';
    if (!host) return [];
    const schemes = Array.isArray(doc.schemes) && doc.schemes.length ? doc.schemes : ['https'];
    const base = typeof doc.basePath === 'string' ? doc.basePath.replace(/\/$/, '') : '';
    return schemes.filter((s): s is string => typeof s === 'string').map((s) => `${s}://${host}${base}`);
  }
  const list = [operation.servers, pathItem.servers, doc.servers].find((s) => Array.isArray(s) && s.length) as
    unknown[] | undefined;
  return (list ?? [])
    .filter(isObj)
    .map((s) => {
      let url = typeof s.url === 'string' ? s.url : '';
      if (isObj(s.variables)) {
        for (const [name, variable] of Object.entries(s.variables)) {
          const value = isObj(variable) ? scalar(variable.default)?.replace(/^"|"$/g, '') : undefined;
          if (value !== undefined) url = url.split(`{${name}}`).join(value);
        }
      }
      return url.replace(/\/$/, '');
    })
    .filter(Boolean);
}

function securityOf(doc: Obj, operation: Obj): string[] {
  const list = (Array.isArray(operation.security) ? operation.security : doc.security) as unknown;
  if (!Array.isArray(list)) return [];
  const names = new Set<string>();
  for (const requirement of list) if (isObj(requirement)) for (const name of Object.keys(requirement)) names.add(name);
  return [...names];
}

function firstContent(content: unknown): { contentType: string; schema: unknown } | undefined {
  if (!isObj(content)) return undefined;
  const types = Object.keys(content);
  const contentType = types.find((t) => /json/i.test(t)) ?? types[0];
  if (!contentType) return undefined;
  const media = content[contentType];
  return { contentType, schema: isObj(media) ? media.schema : undefined };
}

function exampleValue(schema: SchemaView | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.example !== undefined) {
    try {
      return JSON.parse(schema.example) as unknown;
    } catch {
      return schema.example;
    }
  }
  if (schema.enum?.length) {
    try {
      return JSON.parse(schema.enum[0]!) as unknown;
    } catch {
      return schema.enum[0];
    }
  }
  if (schema.properties) {
    const out: Obj = {};
    for (const p of schema.properties.slice(0, 12)) out[p.name] = exampleValue(p.schema, depth + 1);
    return out;
  }
  if (schema.variants) return exampleValue(schema.variants.options[0], depth + 1);
  switch (schema.type) {
    case 'array':
      return [exampleValue(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'date-time' ? '2024-01-01T00:00:00Z' : 'string';
    default:
      return null;
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function exampleRequest(view: Omit<OperationView, 'example'>): string {
  const base = view.servers[0] ?? 'https://api.example.com';
  let path = view.path;
  const query: string[] = [];
  const lines: string[] = [];
  for (const p of view.parameters) {
    const value = exampleValue(p.schema);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(encodeURIComponent(text));
    else if (p.in === 'query' && p.required) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`);
    else if (p.in === 'header' && p.required) lines.push(`--header ${shellQuote(`${p.name}: ${text}`)}`);
  }
  if (view.security.length) lines.push(`--header ${shellQuote('Authorization: Bearer YOUR_SECRET_TOKEN')}`);
  if (view.requestBody) {
    lines.push(`--header ${shellQuote(`Content-Type: ${view.requestBody.contentType}`)}`);
    if (/json/i.test(view.requestBody.contentType)) {
      lines.push(`--data ${shellQuote(JSON.stringify(exampleValue(view.requestBody.schema), null, 2))}`);
    }
  }
  const url = `${base}${path}${query.length ? `?${query.join('&')}` : ''}`;
  return [
    `curl -L --request ${view.method.toUpperCase()} \\`,
    `  --url ${shellQuote(url)}`,
    ...lines.map((l) => `  ${l}`),
  ]
    .join(' \\\n')
    .replace(' \\ \\\n', ' \\\n');
}

export function operationView(
  doc: Obj,
  path: string,
  method: HttpMethod,
  pathItem: Obj,
  operation: Obj,
): OperationView {
  const reader = new SchemaReader(doc);
  const swagger = isSwagger(doc);
  const parameters: OperationView['parameters'] = [];
  const seen = new Set<string>();
  let requestBody: OperationView['requestBody'];
  const formProperties: Array<{ name: string; schema: SchemaView }> = [];
  const rawParams = [
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
  ];
  for (const raw of rawParams) {
    const p = deref(doc, raw).value;
    if (!p || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
    const key = `${p.in}:${p.name}`;
    if (seen.has(key)) continue; // the operation's own parameter overrides the path's
    seen.add(key);
    if (swagger && p.in === 'body') {
      const consumes = (Array.isArray(operation.consumes) ? operation.consumes : doc.consumes) as unknown;
      requestBody = {
        required: p.required === true,
        description: str(p.description),
        contentType: Array.isArray(consumes) && typeof consumes[0] === 'string' ? consumes[0] : 'application/json',
        schema: reader.read(p.schema),
      };
      continue;
    }
    const schema = swagger
      ? reader.read({ ...p, description: undefined, name: undefined, in: undefined })
      : reader.read(p.schema);
    if (swagger && p.in === 'formData') {
      formProperties.push({ name: p.name, schema: { ...(schema ?? {}), required: p.required === true || undefined } });
      continue;
    }
    parameters.push({
      name: p.name,
      in: p.in,
      required: p.required === true || p.in === 'path',
      ...(p.deprecated === true ? { deprecated: true } : {}),
      ...(str(p.description) ? { description: str(p.description) } : {}),
      ...(schema ? { schema } : {}),
    });
  }
  if (formProperties.length && !requestBody) {
    const consumes = (Array.isArray(operation.consumes) ? operation.consumes : doc.consumes) as unknown;
    requestBody = {
      required: formProperties.some((p) => p.schema.required),
      contentType:
        Array.isArray(consumes) && typeof consumes[0] === 'string' ? consumes[0] : 'application/x-www-form-urlencoded',
      schema: { type: 'object', properties: formProperties },
    };
  }
  if (!swagger && operation.requestBody !== undefined) {
    const body = deref(doc, operation.requestBody).value;
    const content = body ? firstContent(body.content) : undefined;
    if (body && content) {
      requestBody = {
        required: body.required === true,
        ...(str(body.description) ? { description: str(body.description) } : {}),
        contentType: content.contentType,
        ...(reader.read(content.schema) ? { schema: reader.read(content.schema) } : {}),
      };
    }
  }
  const responses: OperationView['responses'] = [];
  if (isObj(operation.responses)) {
    for (const [status, raw] of Object.entries(operation.responses)) {
      const r = deref(doc, raw).value;
      if (!r) continue;
      let contentType: string | undefined;
      let schema: SchemaView | undefined;
      if (swagger) {
        const produces = (Array.isArray(operation.produces) ? operation.produces : doc.produces) as unknown;
        schema = reader.read(r.schema);
        if (schema)
          contentType = Array.isArray(produces) && typeof produces[0] === 'string' ? produces[0] : 'application/json';
      } else {
        const content = firstContent(r.content);
        contentType = content?.contentType;
        schema = content ? reader.read(content.schema) : undefined;
      }
      responses.push({
        status,
        ...(str(r.description) ? { description: str(r.description) } : {}),
        ...(contentType ? { contentType } : {}),
        ...(schema ? { schema } : {}),
      });
    }
  }
  const view: Omit<OperationView, 'example'> = {
    method,
    path,
    ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
    ...(str(operation.summary) ? { summary: str(operation.summary) } : {}),
    ...(str(operation.description) ? { description: str(operation.description) } : {}),
    ...(operation.deprecated === true ? { deprecated: true } : {}),
    tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [],
    servers: serversOf(doc, pathItem, operation),
    security: securityOf(doc, operation),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
  return { ...view, example: exampleRequest(view) };
}

export function* operationsOf(
  doc: Obj,
): Generator<{ path: string; method: HttpMethod; pathItem: Obj; operation: Obj }> {
  if (!isObj(doc.paths)) return;
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const pathItem = deref(doc, rawItem).value;
    if (!pathItem) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObj(operation)) yield { path, method, pathItem, operation };
    }
  }
}

/** One operation of a document, or undefined when it has none at this path and method. */
export function findOperation(documentJson: string, path: string, method: string): OperationView | undefined {
  const doc = JSON.parse(documentJson) as Obj;
  const m = method.toLowerCase();
  for (const op of operationsOf(doc)) {
    if (op.path === path && op.method === m) return operationView(doc, op.path, op.method, op.pathItem, op.operation);
  }
  return undefined;
}

/** The operations matching `q`, `limit` from `offset`, with how many match and how many there are. */
export function referencePage(
  documentJson: string,
  specification: string,
  query: { q?: string; offset: number; limit: number },
): OpenApiReferencePage {
  const doc = JSON.parse(documentJson) as Obj;
  const info = isObj(doc.info) ? doc.info : {};
  const words = query.q?.trim().toLowerCase();
  const operations: OperationView[] = [];
  let count = 0;
  let total = 0;
  for (const op of operationsOf(doc)) {
    total++;
    if (words) {
      const text = `${op.method} ${op.path} ${String(op.operation.summary ?? '')} ${String(op.operation.operationId ?? '')}`;
      if (!text.toLowerCase().includes(words)) continue;
    }
    if (count >= query.offset && operations.length < query.limit) {
      operations.push(operationView(doc, op.path, op.method, op.pathItem, op.operation));
    }
    count++;
  }
  const end = query.offset + operations.length;
  return {
    title: str(info.title) ?? 'API',
    version: scalar(info.version)?.replace(/^"|"$/g, '') ?? '',
    ...(str(info.description) ? { description: str(info.description) } : {}),
    specification,
    operations,
    count,
    total,
    ...(end < count ? { next: { page: String(end) } } : {}),
  };
}
