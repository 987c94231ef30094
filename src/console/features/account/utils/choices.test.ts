import { describe, expect, it } from 'vitest';
import { linkChoiceOptions } from './choices';

describe('provider choices', () => {
  const choices = [
    { provider: { id: 'p1', label: 'Okta' }, organization: { id: 'o1', title: 'Acme' } },
    { provider: { id: 'p2', label: 'Okta' }, organization: { id: 'o2', title: 'Globex' } },
  ];

  it('names each provider with its organization, after a prompt that cannot be chosen', () => {
    const options = linkChoiceOptions(choices, new Set());
    expect(options.map((o) => o.label)).toEqual(['Choose a provider…', 'Okta (Acme)', 'Okta (Globex)']);
    expect(options[0]).toMatchObject({ value: '', disabled: true });
  });

  it('lists a provider linked already, but not as a choice', () => {
    const options = linkChoiceOptions(choices, new Set(['p2']));
    expect(options[2]).toEqual({ value: 'p2', label: 'Okta (Globex) · linked', disabled: true });
    expect(options[1]?.disabled).toBe(false);
  });
});
