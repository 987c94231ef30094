import { describe, expect, it } from 'vitest';
import { sortDomains, verifiedHow } from './labels';

describe('e-mail domain labels', () => {
  it('says how a domain was verified', () => {
    expect(verifiedHow({ verifiedBy: 'owner' })).toBe('vouched for by the instance owner');
    expect(verifiedHow({ verifiedBy: 'dns' })).toBe('proven by its DNS TXT record');
  });

  it('lists verified domains first, each group by name', () => {
    const sorted = sortDomains([
      { domain: 'b.test', verified: false },
      { domain: 'z.test', verified: true },
      { domain: 'a.test', verified: false },
      { domain: 'c.test', verified: true },
    ]);
    expect(sorted.map((d) => d.domain)).toEqual(['c.test', 'z.test', 'a.test', 'b.test']);
  });
});
