import type { Element, ElementContent } from 'hast';
import type { OperationView, SchemaView } from '../../../shared/contract/openapi.js';
import type { OperationBlock } from '../../../shared/openapi-blocks.js';
import { el, text } from './hast.js';

/**
 * A page's `{% openapi-operation %}` block on a published page: the operation of the spec's latest version as an
 * API reference section (method and path, parameters, request body and responses with their schemas folded, an
 * example request). Built from text nodes after the body was sanitized: nothing of the document is read as HTML.
 * Its example is a code block, highlighted (and made focusable) like the page's own: a body with blocks is always
 * rendered in a worker (see published/page.ts).
 */

function schemaType(schema: SchemaView | undefined): string {
  if (!schema) return '';
  if (schema.type === 'array') return `${schemaType(schema.items) || 'any'}[]`;
  const base = schema.ref ?? schema.type ?? (schema.variants ? schema.variants.kind : '');
  return schema.nullable ? `${base} | null` : base;
}

function schemaMeta(schema: SchemaView): ElementContent[] {
  const out: ElementContent[] = [];
  const type = schemaType(schema);
  if (type) out.push(el('span', { className: ['api-type'] }, [text(type)]));
  if (schema.format) out.push(el('span', { className: ['api-format'] }, [text(schema.format)]));
  if (schema.required) out.push(el('span', { className: ['api-required'] }, [text('required')]));
  if (schema.deprecated) out.push(el('span', { className: ['api-deprecated'] }, [text('deprecated')]));
  return out;
}

function schemaDetails(schema: SchemaView): ElementContent[] {
  const out: ElementContent[] = [];
  if (schema.description) out.push(el('p', { className: ['api-description'] }, [text(schema.description)]));
  if (schema.enum?.length) {
    out.push(
      el('p', { className: ['api-enum'] }, [
        text('One of: '),
        ...schema.enum.flatMap((v, i) => [...(i ? [text(', ')] : []), el('code', {}, [text(v)])]),
      ]),
    );
  }
  if (schema.default !== undefined) out.push(el('p', {}, [text('Default: '), el('code', {}, [text(schema.default)])]));
  if (schema.example !== undefined) out.push(el('p', {}, [text('Example: '), el('code', {}, [text(schema.example)])]));
  return out;
}

/** The properties of an object schema (or of its items), as a nested list; nested objects fold. */
function schemaTree(schema: SchemaView | undefined, depth = 0): Element | undefined {
  const target = schema?.type === 'array' && schema.items?.properties ? schema.items : schema;
  if (target?.variants && !target.properties) {
    return el(
      'ul',
      { className: ['api-schema'] },
      target.variants.options.map((option, i) =>
        el('li', {}, [
          el('p', {}, [
            text(`${target.variants!.kind === 'oneOf' ? 'One of' : 'Any of'} ${i + 1}: `),
            ...schemaMeta(option),
          ]),
          ...(schemaTree(option, depth + 1) ? [schemaTree(option, depth + 1)!] : []),
        ]),
      ),
    );
  }
  if (!target?.properties?.length) return undefined;
  return el(
    'ul',
    { className: ['api-schema'] },
    target.properties.map(({ name, schema: child }) => {
      const head = [el('code', { className: ['api-name'] }, [text(name)]), ...schemaMeta(child)];
      const nested = depth < 6 ? schemaTree(child, depth + 1) : undefined;
      if (!nested) return el('li', {}, [el('p', {}, head), ...schemaDetails(child)]);
      return el('li', {}, [el('details', {}, [el('summary', {}, head), ...schemaDetails(child), nested])]);
    }),
  );
}

function section(title: string, children: ElementContent[]): Element {
  return el('div', { className: ['api-part'] }, [
    el('p', { className: ['api-part-title'] }, [text(title)]),
    ...children,
  ]);
}

export function operationElement(block: OperationBlock, view: OperationView | null | undefined): Element {
  const label = `${block.method.toUpperCase()} ${block.path}`;
  if (!view) {
    return el('div', { className: ['api-operation', 'api-missing'], role: 'note' }, [
      el('p', {}, [text(`The API operation ${label} of the specification “${block.spec}” is not available.`)]),
    ]);
  }
  const children: ElementContent[] = [
    el('div', { className: ['api-head'] }, [
      el('span', { className: ['api-method', `api-${view.method}`] }, [text(view.method.toUpperCase())]),
      text(' '),
      el('code', { className: ['api-path'] }, [text(view.path)]),
      ...(view.deprecated ? [text(' '), el('span', { className: ['api-deprecated'] }, [text('deprecated')])] : []),
    ]),
  ];
  if (view.summary) children.push(el('p', { className: ['api-summary'] }, [text(view.summary)]));
  if (view.description) children.push(el('p', { className: ['api-description'] }, [text(view.description)]));
  if (view.servers.length || view.security.length) {
    children.push(
      el('p', { className: ['api-meta'] }, [
        ...(view.servers[0] ? [text('Server: '), el('code', {}, [text(view.servers[0])])] : []),
        ...(view.servers[0] && view.security.length ? [text(' · ')] : []),
        ...(view.security.length ? [text(`Authorization: ${view.security.join(', ')}`)] : []),
      ]),
    );
  }
  if (view.parameters.length) {
    const groups = ['path', 'query', 'header', 'cookie'];
    for (const where of groups) {
      const params = view.parameters.filter((p) => p.in === where);
      if (!params.length) continue;
      children.push(
        section(`${where[0]!.toUpperCase()}${where.slice(1)} parameters`, [
          el(
            'ul',
            { className: ['api-schema'] },
            params.map((p) =>
              el('li', {}, [
                el('p', {}, [
                  el('code', { className: ['api-name'] }, [text(p.name)]),
                  ...schemaMeta({ ...(p.schema ?? {}), required: p.required, deprecated: p.deprecated }),
                ]),
                ...(p.description ? [el('p', { className: ['api-description'] }, [text(p.description)])] : []),
                ...(p.schema ? schemaDetails({ ...p.schema, description: undefined }) : []),
              ]),
            ),
          ),
        ]),
      );
    }
  }
  if (view.requestBody) {
    const tree = schemaTree(view.requestBody.schema);
    children.push(
      section('Body', [
        el('p', {}, [
          el('span', { className: ['api-type'] }, [text(view.requestBody.contentType)]),
          ...(view.requestBody.schema
            ? [text(' '), ...schemaMeta({ ...view.requestBody.schema, required: false })]
            : []),
          ...(view.requestBody.required ? [el('span', { className: ['api-required'] }, [text('required')])] : []),
        ]),
        ...(view.requestBody.description
          ? [el('p', { className: ['api-description'] }, [text(view.requestBody.description)])]
          : []),
        ...(tree ? [tree] : []),
      ]),
    );
  }
  if (view.responses.length) {
    children.push(
      section(
        'Responses',
        view.responses.map((r, i) => {
          const tree = schemaTree(r.schema);
          const head: ElementContent[] = [
            el('span', { className: ['api-status', `api-status-${r.status[0] ?? 'x'}`] }, [text(r.status)]),
            text(' '),
            text(r.description ?? ''),
            ...(r.contentType ? [text(' '), el('span', { className: ['api-type'] }, [text(r.contentType)])] : []),
            ...(r.schema ? [text(' '), ...schemaMeta({ ...r.schema, required: false })] : []),
          ];
          return tree
            ? el('details', { className: ['api-response'], ...(i === 0 ? { open: true } : {}) }, [
                el('summary', {}, head),
                tree,
              ])
            : el('p', { className: ['api-response'] }, head);
        }),
      ),
    );
  }
  children.push(
    section('Example request', [el('pre', {}, [el('code', { className: ['language-bash'] }, [text(view.example)])])]),
  );
  return el('section', { className: ['api-operation'], ariaLabel: label }, children);
}
