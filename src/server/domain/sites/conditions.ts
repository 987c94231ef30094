import jsep from 'jsep';
import { InvalidError } from '../errors.js';

/**
 * The condition language of sections and site spaces: a small, side-effect-free subset of JavaScript
 * expressions over the visitor's claims, parsed by jsep and evaluated here by walking the tree (never with eval).
 *
 * - values: `visitor.claims.<name>` (nested: `visitor.claims.unsigned.beta`, `visitor.claims["a-b"]`), string,
 *   number, boolean and null literals, arrays of those;
 * - operators: `&&`, `||`, `!`, `==`, `!=`, `===`, `!==` (all four strict: no type coercion), `<`, `<=`, `>`, `>=`
 *   (numbers with numbers, strings with strings; otherwise false), unary `-` on numbers, parentheses;
 * - one method: `<array or string>.includes(<value>)`.
 *
 * A claim that is absent is `undefined`: comparisons with it are false and it is falsy. A section or site space
 * is shown when its condition's value is truthy. Anything else (other identifiers, assignments, calls, `this`,
 * ternaries...) is refused when the condition is saved, so evaluation never fails at view time.
 */

type Node = jsep.Expression;
type Value = unknown;

const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=']);
const LOGICAL = new Set(['&&', '||']);

export class ConditionError extends Error {}

/** A claim path: `visitor.claims` then names; undefined when `node` is not one. */
function claimPath(node: Node): string[] | undefined {
  const names: string[] = [];
  let current: Node = node;
  while (current.type === 'MemberExpression') {
    const m = current as jsep.MemberExpression;
    if (m.computed) {
      const prop = m.property;
      if (prop.type !== 'Literal' || typeof (prop as jsep.Literal).value !== 'string') {
        throw new ConditionError('a claim name in brackets must be a string literal, e.g. visitor.claims["plan"]');
      }
      names.unshift((prop as jsep.Literal).value as string);
    } else {
      names.unshift((m.property as jsep.Identifier).name);
    }
    current = m.object;
  }
  if (current.type !== 'Identifier') return undefined;
  names.unshift((current as jsep.Identifier).name);
  return names;
}

function check(node: Node, depth = 0): void {
  if (depth > 64) throw new ConditionError('the expression is nested too deeply');
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) throw new ConditionError('regular expressions are not supported');
      return;
    }
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (!element) throw new ConditionError('arrays cannot have holes');
        check(element, depth + 1);
      }
      return;
    case 'Identifier':
    case 'MemberExpression': {
      const path = claimPath(node);
      if (!path || path[0] !== 'visitor' || path[1] !== 'claims') {
        const name = path ? path.join('.') : 'this expression';
        throw new ConditionError(`unknown name ${name}: use visitor.claims.<name>`);
      }
      return;
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      if (u.operator !== '!' && u.operator !== '-') throw new ConditionError(`operator ${u.operator} is not supported`);
      check(u.argument, depth + 1);
      return;
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!COMPARISONS.has(b.operator) && !LOGICAL.has(b.operator)) {
        throw new ConditionError(`operator ${b.operator} is not supported`);
      }
      check(b.left, depth + 1);
      check(b.right, depth + 1);
      return;
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      const callee = c.callee as jsep.MemberExpression;
      if (
        callee.type !== 'MemberExpression' ||
        callee.computed ||
        (callee.property as jsep.Identifier).name !== 'includes' ||
        c.arguments.length !== 1
      ) {
        throw new ConditionError('the only function is <list>.includes(<value>)');
      }
      check(callee.object, depth + 1);
      check(c.arguments[0]!, depth + 1);
      return;
    }
    default:
      throw new ConditionError(`${node.type} is not supported in a condition`);
  }
}

/** Parses and checks a condition; throws ConditionError with the reason when it is not one. */
export function parseCondition(source: string): Node {
  let ast: Node;
  try {
    ast = jsep(source);
  } catch (err) {
    throw new ConditionError((err as Error).message);
  }
  if (ast.type === 'Compound' || ast.type === 'SequenceExpression') {
    throw new ConditionError('a condition is a single expression');
  }
  check(ast);
  return ast;
}

/** 400 naming `field` when `source` is not a valid condition. */
export function validateCondition(field: string, source: string): void {
  try {
    parseCondition(source);
  } catch (err) {
    throw new InvalidError(field, `invalid condition: ${(err as Error).message}`);
  }
}

function ownProperty(value: Value, key: string): Value {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, Value>)[key] : undefined;
}

function compare(op: string, a: Value, b: Value): boolean {
  switch (op) {
    case '==':
    case '===':
      return equal(a, b);
    case '!=':
    case '!==':
      return !equal(a, b);
  }
  const comparable =
    (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) return false;
  const x = a as number | string;
  const y = b as number | string;
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function equal(a: Value, b: Value): boolean {
  return a === b;
}

function evaluate(node: Node, claims: Record<string, unknown>): Value {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((e) => evaluate(e!, claims));
    case 'Identifier':
    case 'MemberExpression': {
      const path = claimPath(node)!;
      let value: Value = claims;
      for (const name of path.slice(2)) value = ownProperty(value, name);
      return value;
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      const v = evaluate(u.argument, claims);
      return u.operator === '!' ? !v : typeof v === 'number' ? -v : undefined;
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (b.operator === '&&') return Boolean(evaluate(b.left, claims)) && Boolean(evaluate(b.right, claims));
      if (b.operator === '||') return Boolean(evaluate(b.left, claims)) || Boolean(evaluate(b.right, claims));
      return compare(b.operator, evaluate(b.left, claims), evaluate(b.right, claims));
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      const target = evaluate((c.callee as jsep.MemberExpression).object, claims);
      const arg = evaluate(c.arguments[0]!, claims);
      if (Array.isArray(target)) return target.some((v) => equal(v, arg));
      if (typeof target === 'string' && typeof arg === 'string') return target.includes(arg);
      return false;
    }
    default:
      return false;
  }
}

const parsed = new Map<string, Node | null>();

/**
 * Whether a visitor with `claims` sees an item with `condition` (no condition: always). Conditions were checked
 * when saved; one that no longer parses (it cannot happen through the API) hides the item.
 */
export function conditionMatches(condition: string | null, claims: Record<string, unknown>): boolean {
  if (condition === null) return true;
  let ast = parsed.get(condition);
  if (ast === undefined) {
    try {
      ast = parseCondition(condition);
    } catch {
      ast = null;
    }
    if (parsed.size >= 5000) parsed.clear();
    parsed.set(condition, ast);
  }
  return ast !== null && Boolean(evaluate(ast, claims));
}
