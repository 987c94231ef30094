import { describe, expect, it } from 'vitest';
import { parseOrganizationRef } from './sso';

describe('parseOrganizationRef', () => {
  it('takes an id as it is', () => {
    expect(parseOrganizationRef(' 01hzy3k9q0abcd ')).toBe('01hzy3k9q0abcd');
  });

  it('finds the id in a console address or an invite link', () => {
    expect(parseOrganizationRef('https://docs.example.com/o/org_123/spaces/s1')).toBe('org_123');
    expect(parseOrganizationRef('https://docs.example.com/o/org_123')).toBe('org_123');
    expect(parseOrganizationRef('http://127.0.0.1:3123/join/abc/inv1')).toBe('abc');
    expect(parseOrganizationRef('/o/abc?x=1')).toBe('abc');
  });

  it('refuses what names no organization', () => {
    expect(parseOrganizationRef('')).toBeUndefined();
    expect(parseOrganizationRef('my organization')).toBeUndefined();
    expect(parseOrganizationRef('https://docs.example.com/login')).toBeUndefined();
  });
});
