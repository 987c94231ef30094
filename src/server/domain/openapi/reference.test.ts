import { describe, expect, it } from 'vitest';
import { findOperation, referencePage } from './reference.js';
import { allOfChain } from '../../test/openapi-fixtures.js';

describe('reading a document for its reference', () => {
  it('merges a schema referred to many times once (no exponential work)', () => {
    const op = findOperation(allOfChain(12, 10), '/a', 'get');
    expect(op?.responses[0]?.schema?.properties?.map((p) => p.name)).toEqual(['leaf']);
  });

  it('reads references that are not valid percent-encoding, or point elsewhere, without failing', () => {
    const doc = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Refs', version: '1' },
      paths: {
        '/a': {
          get: {
            responses: {
              '200': {
                description: 'OK',
                content: { 'application/json': { schema: { $ref: 'other.yaml#/%E0' } } },
              },
              '201': {
                description: 'OK',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/%E0' } } },
              },
            },
          },
        },
      },
    });
    const op = findOperation(doc, '/a', 'get');
    expect(op?.responses.map((r) => r.schema)).toEqual([
      { ref: '%E0', truncated: true },
      { ref: '%E0', truncated: true },
    ]);
    expect(referencePage(doc, 'openapi 3.0.3', { offset: 0, limit: 10 }).operations).toHaveLength(1);
  });

  it('shows at most 200 properties of a schema, marked as cut', () => {
    const properties = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const doc = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Wide', version: '1' },
      paths: {
        '/a': {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } },
            responses: { '204': { description: 'Done' } },
          },
        },
      },
    });
    const body = findOperation(doc, '/a', 'post')?.requestBody?.schema;
    expect(body?.properties).toHaveLength(200);
    expect(body?.truncated).toBe(true);
  });
});
