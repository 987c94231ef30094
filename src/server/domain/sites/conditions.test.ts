import { describe, expect, it } from 'vitest';
import { ConditionError, conditionMatches, parseCondition } from './conditions.js';

describe('site conditions', () => {
  const claims = { plan: 'pro', seats: 12, beta: true, roles: ['admin', 'dev'], unsigned: { dark: false } };
  const cases: Array<[string, boolean]> = [
    ['visitor.claims.beta', true],
    ['!visitor.claims.beta', false],
    ['visitor.claims.plan == "pro"', true],
    ['visitor.claims.plan === "free"', false],
    ['visitor.claims.seats > 10 && visitor.claims.seats <= 12', true],
    ['visitor.claims.seats == "12"', false],
    ['visitor.claims.plan < 3', false],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.roles.includes("owner")', false],
    ['visitor.claims.plan.includes("pr")', true],
    ['["pro", "team"].includes(visitor.claims.plan)', true],
    ['visitor.claims.unsigned.dark || visitor.claims["plan"] != "pro"', false],
    ['visitor.claims.missing.deeper === "x"', false],
    ['visitor.claims.missing == null', false],
    ['visitor.claims.seats > -1', true],
    ['visitor.claims.constructor', false],
    ['visitor.claims.__proto__', false],
  ];
  for (const [condition, expected] of cases) {
    it(`${condition} → ${expected}`, () => {
      expect(conditionMatches(condition, claims)).toBe(expected);
    });
  }

  it('shows items without a condition, and hides everything conditional from a visitor without claims', () => {
    expect(conditionMatches(null, {})).toBe(true);
    expect(conditionMatches('visitor.claims.beta', {})).toBe(false);
    expect(conditionMatches('!visitor.claims.beta', {})).toBe(true);
  });

  it('refuses what is not in the language, with a reason', () => {
    for (const bad of [
      'visitor.claims.a +',
      'visitor.claims.a + 1',
      'alert(1)',
      'visitor.claims.a = 1',
      'visitor.claims.toString()',
      'window.location',
      'visitor.claims.a ? 1 : 2',
      'visitor.claims[visitor.claims.b]',
      '/re/.test(visitor.claims.a)',
      'a, b',
      'visitor.claims.a === undefined',
    ]) {
      expect(() => parseCondition(bad), bad).toThrow(ConditionError);
    }
  });
});
