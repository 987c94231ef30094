import { describe, expect, it } from 'vitest';
import { claimAudience } from './adaptive.js';

describe('claimAudience', () => {
  it('turns "whether the visitor …" into who the visitors are', () => {
    expect(claimAudience('beta', 'Whether the visitor is in the beta programme.')).toBe(
      'visitors who are in the beta programme',
    );
    expect(claimAudience('beta', 'the visitor joined the beta')).toBe('visitors who joined the beta');
    expect(claimAudience('paid', 'The user has a paid plan')).toBe('visitors who have a paid plan');
    expect(claimAudience('eu', 'Visitor belongs to an EU company')).toBe('visitors who belong to an EU company');
  });

  it('reads a description that opens with a verb, and plural noun phrases', () => {
    expect(claimAudience('staff', 'Is a member of staff')).toBe('visitors who are a member of staff');
    expect(claimAudience('beta', 'Beta programme members')).toBe('visitors who are Beta programme members');
    expect(claimAudience('tier', 'Enterprise tier')).toBe('visitors with “Enterprise tier”');
  });

  it('falls back on the claim name when there is no description', () => {
    expect(claimAudience('darkMode', '  ')).toBe('visitors whose claim darkMode is true');
  });
});
