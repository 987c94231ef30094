import type { TestServer } from './harness.js';

/** Runs the due jobs, then polls a spec (`GET …/openapi/{slug}`) until its processing is complete; answers it. */
export async function processedSpec(server: TestServer, organizationId: string, slug: string, token?: string) {
  // The jobs due now run to their end first; only a job retried later needs the polling.
  await server.drainJobs();
  for (let i = 0; i < 200; i++) {
    const res = await server.request('GET', `/v1/orgs/${organizationId}/openapi/${slug}`, { token });
    if (res.body.processingState === 'complete') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${slug} was not processed`);
}

/** A valid document whose schemas' allOf lists the next one `fanout` times, `levels` deep: costly if read naively. */
export function allOfChain(levels: number, fanout: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    schemas[`S${i}`] =
      i === levels - 1
        ? { type: 'object', properties: { leaf: { type: 'string' } } }
        : { allOf: Array.from({ length: fanout }, () => ({ $ref: `#/components/schemas/S${i + 1}` })) };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Chain', version: '1' },
    paths: {
      '/a': {
        get: {
          responses: {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } },
            },
          },
        },
      },
    },
    components: { schemas },
  });
}

/**
 * OpenAPI documents for tests and benchmarks: a pet store in OpenAPI 3.0 (YAML), its next version with breaking
 * changes, the same API in OpenAPI 3.1 (JSON) and Swagger 2.0 (YAML), and a generator of large documents.
 */

export const PETSTORE_V1 = `openapi: 3.0.3
info:
  title: Pet store
  version: 1.0.0
  description: Pets, for sale.
servers:
  - url: https://pets.example.com/v1
security:
  - bearer: []
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      tags: [pets]
      parameters:
        - name: limit
          in: query
          description: How many pets to return
          schema: { type: integer, maximum: 100 }
        - name: kind
          in: query
          schema: { type: string, enum: [cat, dog, bird] }
      responses:
        '200':
          description: A page of pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
    post:
      operationId: createPet
      summary: Add a pet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
      responses:
        '201':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
  /pets/{petId}:
    get:
      operationId: getPet
      summary: Get a pet
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
        '404':
          description: No such pet
    delete:
      operationId: deletePet
      summary: Remove a pet
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '204':
          description: Removed
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string, example: Rex }
        tag: { type: string }
        age: { type: number }
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: { type: string }
            owner: { $ref: '#/components/schemas/Owner' }
    Owner:
      type: object
      properties:
        name: { type: string }
        pets:
          type: array
          items: { $ref: '#/components/schemas/Pet' }
`;

/** v1 with: DELETE removed, a new required query parameter on GET /pets, `age` narrowed to integer, `tag`
 *  removed from NewPet, and an added operation. */
export const PETSTORE_V2 = PETSTORE_V1.replace(
  `    delete:
      operationId: deletePet
      summary: Remove a pet
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '204':
          description: Removed
`,
  '',
)
  .replace(
    `        - name: kind
          in: query
          schema: { type: string, enum: [cat, dog, bird] }`,
    `        - name: kind
          in: query
          schema: { type: string, enum: [cat, dog, bird] }
        - name: store
          in: query
          required: true
          schema: { type: string }`,
  )
  .replace('        age: { type: number }', '        age: { type: integer }')
  .replace('        tag: { type: string }\n', '')
  .replace(
    'components:\n',
    `  /stores:
    get:
      operationId: listStores
      summary: List stores
      responses:
        '200':
          description: Stores
components:
`,
  )
  .replace('version: 1.0.0', 'version: 2.0.0');

export const PETSTORE_31_JSON = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pet store 3.1', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        summary: 'List pets',
        responses: {
          '200': {
            description: 'Pets',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, name: { type: ['string', 'null'] } },
      },
    },
  },
});

export const PETSTORE_SWAGGER = `swagger: '2.0'
info:
  title: Pet store (Swagger)
  version: 1.0.0
host: pets.example.com
basePath: /v1
schemes: [https]
paths:
  /pets:
    post:
      summary: Add a pet
      consumes: [application/json]
      parameters:
        - in: body
          name: pet
          required: true
          schema: { $ref: '#/definitions/Pet' }
      responses:
        '200':
          description: The pet
          schema: { $ref: '#/definitions/Pet' }
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: { type: string }
`;

/**
 * A valid OpenAPI 3.0 document of about `bytes` bytes (JSON): many operations over shared schemas, as large
 * public specifications are.
 */
export function largeSpec(bytes: number): string {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  let i = 0;
  let size = 0;
  while (size < bytes) {
    const name = `Resource${i}`;
    schemas[name] = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', description: `Identifier of resource ${i}` },
        name: { type: 'string', description: 'A human readable name for this resource, shown in listings' },
        createdAt: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        parent: { $ref: `#/components/schemas/Resource${Math.max(0, i - 1)}` },
      },
    };
    const op = (summary: string, extra: Record<string, unknown> = {}) => ({
      operationId: `${summary.replace(/\W/g, '')}${i}`,
      summary,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'OK',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
      },
      ...extra,
    });
    const item = {
      get: op(`Get resource ${i}`),
      put: op(`Replace resource ${i}`, {
        requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
      }),
      delete: op(`Delete resource ${i}`),
    };
    paths[`/resources${i}/{id}`] = item;
    size += JSON.stringify(item).length + JSON.stringify(schemas[name]).length;
    i++;
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Large API', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
    paths,
    components: { schemas },
  });
}
