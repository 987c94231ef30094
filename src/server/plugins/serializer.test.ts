import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './serializer.js';
import { spaceSchema } from '../../shared/contract/spaces.js';
import { commentListSchema } from '../../shared/contract/comments.js';

type Serialize = (data: unknown) => string;
const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/test', httpStatus: '200' });
const fast = (schema: z.ZodType, check = false) =>
  responseSerializerCompiler({ check })(route(schema) as never) as Serialize;
const zod = (schema: z.ZodType) => zodSerializerCompiler(route(schema) as never) as Serialize;

/** Both serializers agree, byte for byte. */
function same(schema: z.ZodType, value: unknown) {
  const expected = zod(schema)(value);
  expect(fast(schema)(value)).toBe(expected);
  expect(fast(schema, true)(value)).toBe(expected);
}

const user = z.object({ object: z.literal('user'), id: z.string(), email: z.string().optional(), name: z.string() });

describe('response serializer', () => {
  it('writes the schema keys in the schema order, without the others, as zod does', () => {
    same(user, { name: 'Ann', email: 'a@x', id: 'u1', object: 'user', password_hash: 'secret' });
    same(user, { name: 'Ann', id: 'u1', object: 'user', email: undefined });
    expect(fast(user)({ name: 'Ann', id: 'u1', object: 'user', secret: 1 })).toBe(
      '{"object":"user","id":"u1","name":"Ann"}',
    );
  });

  it('writes strings, numbers and nested values like JSON.stringify', () => {
    const schema = z.object({
      text: z.string(),
      n: z.number(),
      i: z.number().int(),
      flag: z.boolean(),
      maybe: z.string().nullable(),
      list: z.array(user),
      map: z.record(z.string(), z.number()),
      anything: z.unknown(),
      level: z.enum(['read', 'edit']).nullable().optional(),
    });
    same(schema, {
      text: 'quote " backslash \\ newline \n nul \u0000 lone \ud800 emoji 👍 </script>',
      n: -0.5e-7,
      i: 12345678901,
      flag: false,
      maybe: null,
      list: [
        { object: 'user', id: 'a', name: 'A' },
        { object: 'user', id: 'b', name: 'B', email: 'b@x', extra: true },
      ],
      map: { b: 1, a: 2, 10: 3, 2: 4 },
      anything: { deep: [1, { x: null }], u: undefined },
      level: 'edit',
    });
    same(schema, { text: '', n: 0, i: 0, flag: true, maybe: 'x', list: [], map: {}, anything: null });
  });

  it('takes the first union option that accepts the value, as zod does', () => {
    const body = z.union([
      z.object({ markdown: z.string() }),
      z.object({ document: z.object({ nodes: z.array(z.string()) }) }),
    ]);
    const schema = z.object({ body });
    same(schema, { body: { markdown: 'm', document: { nodes: ['x'] } } });
    same(schema, { body: { document: { nodes: ['x'] }, other: 1 } });
    const shapes = z.discriminatedUnion('type', [
      z.object({ type: z.literal('a'), a: z.string() }),
      z.object({ type: z.literal('b'), b: z.number() }),
    ]);
    same(z.array(shapes), [
      { b: 2, type: 'b', a: 'x' },
      { a: 'y', type: 'a' },
    ]);
  });

  it('follows recursive schemas', () => {
    interface Node {
      id: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.object({
      id: z.string(),
      get children() {
        return z.array(node);
      },
    });
    same(node, { children: [{ children: [], id: 'b', x: 1 }], id: 'a' });
  });

  it('leaves to zod the schemas that change values on the way out', () => {
    same(z.object({ name: z.string().trim() }), { name: '  padded  ' });
    same(z.object({ name: z.string(), n: z.number().default(3) }), { name: 'n', n: 4 });
    same(z.object({ name: z.string().toLowerCase() }), { name: 'MiXed' });
  });

  it('writes what the contract promises for spaces and comment lists', () => {
    const space = {
      object: 'space',
      id: 's1',
      title: 'T',
      emoji: '',
      visibility: 'private',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      organization: 'o1',
      revision: 'r1',
      defaultLevel: null,
      comments: 0,
      changeRequests: 1,
      changeRequestsOpen: 1,
      changeRequestsDraft: 0,
      urls: { location: 'l', app: 'a' },
      permissions: {
        view: true,
        access: true,
        admin: false,
        viewInviteLinks: false,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: false,
        review: false,
        installIntegration: false,
      },
    };
    same(spaceSchema, space);
    const who = { object: 'user', id: 'u', displayName: 'U', email: 'u@x', urls: { location: 'l' } };
    same(commentListSchema, {
      items: [
        {
          object: 'comment',
          id: 'c',
          postedBy: who,
          postedAt: 't',
          reactions: [{ emoji: '👍', count: 1, users: [{ user: who, reactedAt: 't' }] }],
          body: { markdown: '**x**' },
          urls: { location: 'l' },
          permissions: { view: true, edit: true, reply: true, delete: true, resolve: true },
          replies: 1,
          repliers: [who],
          target: { space: 's', revision: 'r', page: { id: 'p', title: 'P', path: 'p', outdated: false } },
          status: 'resolved',
          resolvedAt: 't',
          resolvedBy: who,
        },
      ],
      count: 1,
    });
  });

  it('with check, still refuses what the schema refuses', () => {
    expect(() => fast(user, true)({ object: 'user', id: 1, name: 'A' })).toThrow(/match the schema/);
    expect(fast(user)({ object: 'user', id: 'u', name: 'A' })).toBe('{"object":"user","id":"u","name":"A"}');
  });
});
