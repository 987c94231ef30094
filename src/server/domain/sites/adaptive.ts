import { Ajv, type ErrorObject } from 'ajv';
import { ADAPTIVE_CLAIMS_MAX, type AdaptiveJsonSchema } from '../../../shared/contract/sites.js';
import { InvalidError } from '../errors.js';

/**
 * The adaptive schema of a site describes the claims visitors carry: boolean claims with a description, at the
 * top level (signed, from the visitor JWT) and under `unsigned`. A schema is accepted only when it is a valid JSON
 * Schema draft-07 (checked against the draft-07 meta-schema and compiled by Ajv) and has that documented shape.
 */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const claim = {
  type: 'object',
  required: ['type', 'description'],
  properties: { type: { const: 'boolean' }, description: { type: 'string', maxLength: 1024 } },
  additionalProperties: false,
};
/** Claim names are identifiers, so that `visitor.claims.<name>` can name them in conditions. */
const claimName = { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' };

const documentedShape = {
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
  properties: {
    $schema: { const: DRAFT_07 },
    $id: { type: 'string', maxLength: 2048 },
    type: { const: 'object' },
    properties: {
      type: 'object',
      propertyNames: claimName,
      // The signed claims and `unsigned`.
      maxProperties: ADAPTIVE_CLAIMS_MAX + 1,
      properties: {
        unsigned: {
          type: 'object',
          required: ['type', 'properties', 'additionalProperties'],
          additionalProperties: false,
          properties: {
            type: { const: 'object' },
            description: { type: 'string', maxLength: 1024 },
            properties: {
              type: 'object',
              propertyNames: claimName,
              maxProperties: ADAPTIVE_CLAIMS_MAX,
              additionalProperties: claim,
            },
            additionalProperties: { const: false },
          },
        },
      },
      additionalProperties: claim,
    },
    additionalProperties: { const: false },
  },
};

const shapeAjv = new Ajv({ allErrors: false, strict: true });
const validateShape = shapeAjv.compile(documentedShape);

function reason(errors: ErrorObject[] | null | undefined, prefix: string): { path: string; message: string } {
  const e = errors?.[0];
  if (!e) return { path: prefix, message: 'is invalid' };
  const path = [prefix, ...e.instancePath.split('/').filter(Boolean)].join('.');
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})`
      : e.keyword === 'const'
        ? ` (${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)})`
        : '';
  return { path, message: `${e.message ?? 'is invalid'}${extra}` };
}

/** Returns the schema when it is a valid draft-07 schema of the documented shape; 400 with the reason otherwise. */
export function validateAdaptiveSchema(jsonSchema: Record<string, unknown>): AdaptiveJsonSchema {
  // Ajv picks the meta-schema by `$schema` and throws on one that is not a known URI: only draft-07 is taken.
  if ('$schema' in jsonSchema && jsonSchema.$schema !== DRAFT_07) {
    throw new InvalidError('jsonSchema.$schema', `must be ${JSON.stringify(DRAFT_07)} (JSON Schema draft-07)`);
  }
  // A fresh Ajv each time: the schema's own $id must not clash with one compiled before.
  const ajv = new Ajv({ strict: false, allErrors: false });
  let valid: boolean;
  try {
    valid = ajv.validateSchema(jsonSchema) as boolean;
  } catch (err) {
    throw new InvalidError('jsonSchema', `not a valid JSON Schema draft-07: ${(err as Error).message}`);
  }
  if (!valid) {
    const r = reason(ajv.errors, 'jsonSchema');
    throw new InvalidError(r.path, `not a valid JSON Schema draft-07: ${r.message}`);
  }
  // The shape before compiling: checking against the meta-schema and the shape costs as much as the schema is
  // long, compiling it much more (1–2.5 s for 1 MB of claims, on the event loop). A schema of the documented shape
  // is a few hundred boolean claims at most, cheap to compile.
  if (!validateShape(jsonSchema)) {
    const r = reason(validateShape.errors, 'jsonSchema');
    throw new InvalidError(r.path, `not an adaptive schema: ${r.message}`);
  }
  try {
    ajv.compile(jsonSchema);
  } catch (err) {
    throw new InvalidError('jsonSchema', `not a valid JSON Schema draft-07: ${(err as Error).message}`);
  }
  return jsonSchema as AdaptiveJsonSchema;
}

/** The schema of a site that has none yet: no claims. */
export function emptyAdaptiveSchema(): AdaptiveJsonSchema {
  return {
    $schema: DRAFT_07,
    type: 'object',
    properties: {
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: {},
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

interface Claims {
  [name: string]: { description: string };
}

const WHETHER = /^(?:whether|if)\s+/i;
const SUBJECT = /^(?:the\s+|a\s+)?(?:visitor|user|reader|customer|person)\s+/i;
/** Verbs a claim's description may open with when it has no subject ("Is in the beta programme"). */
const OPENING_VERB =
  /^(?:is|are|has|have|had|was|were|can|could|does|did|will|uses|owns|belongs|pays|works|holds|lives|speaks|joined|signed|subscribed|bought|paid)\b/i;

/** A verb said of one visitor, said of several: is → are, has → have, belongs → belong. */
function pluralVerb(verb: string): string {
  const irregular: Record<string, string> = { is: 'are', has: 'have', was: 'were', does: 'do' };
  const lower = verb.toLowerCase();
  if (irregular[lower]) return irregular[lower];
  if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x|z|o)es$/.test(lower)) return lower.slice(0, -2);
  if (/[^s]s$/.test(lower) && !/(?:us|is)$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/**
 * Who a claim is true of, in words, from its description: "Whether the visitor is in the beta programme" →
 * "visitors who are in the beta programme"; "Beta programme members" → "visitors who are Beta programme members";
 * else the claim's name says it.
 */
export function claimAudience(name: string, description: string): string {
  let text = description.trim().replace(/[.\s]+$/, '');
  text = text.replace(WHETHER, '');
  const hadSubject = SUBJECT.test(text);
  text = text.replace(SUBJECT, '');
  if (!text) return `visitors whose claim ${name} is true`;
  const [first = '', ...rest] = text.split(/\s+/);
  if (hadSubject || OPENING_VERB.test(first)) return ['visitors who', pluralVerb(first), ...rest].join(' ');
  // A noun phrase: plural ("Beta programme members") reads after "who are"; a singular one is quoted.
  return /[^s]s$/i.test(text) ? `visitors who are ${text}` : `visitors with “${text}”`;
}

/** Example conditions for each claim of the schema: shown when it is true, and when it is not. */
export function templateConditions(schema: AdaptiveJsonSchema): Array<{ description: string; condition: string }> {
  const props = schema.properties as Record<string, unknown>;
  const unsigned = ((props.unsigned as { properties?: Claims } | undefined)?.properties ?? {}) as Claims;
  const signed = Object.entries(props).filter(([name]) => name !== 'unsigned') as Array<
    [string, { description: string }]
  >;
  const items: Array<{ description: string; condition: string }> = [];
  const add = (path: string, name: string, description: string) => {
    const who = claimAudience(name, description);
    items.push({ description: `Show to ${who}`, condition: `${path} === true` });
    items.push({ description: `Hide from ${who}`, condition: `${path} !== true` });
  };
  for (const [name, c] of signed) add(`visitor.claims.${name}`, name, c.description);
  for (const [name, c] of Object.entries(unsigned)) add(`visitor.claims.unsigned.${name}`, name, c.description);
  return items;
}
