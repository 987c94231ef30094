import { describe, expect, it } from 'vitest';
import { domainOf } from './sso';

describe('sign-in discovery', () => {
  it("takes the address's domain as the server compares it", () => {
    expect(domainOf('Ada@Acme.Example')).toBe('acme.example');
    expect(domainOf(' ada@acme.example ')).toBe('acme.example');
    expect(domainOf('no-domain')).toBe('');
  });
});
