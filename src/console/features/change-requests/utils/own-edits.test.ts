import { describe, expect, it } from 'vitest';
import { onlyOwnEditsElsewhere, recordOwnEdit } from './own-edits';

describe('own edits', () => {
  it('follows a chain of own edits that left the page alone', () => {
    recordOwnEdit('a1', 'a2', ['other']);
    recordOwnEdit('a2', 'a3', []);
    expect(onlyOwnEditsElsewhere('a1', 'a3', 'page')).toBe(true);
    expect(onlyOwnEditsElsewhere('a1', 'a1', 'page')).toBe(true);
  });

  it('stops at an edit of the page, unless the asker made it', () => {
    recordOwnEdit('b1', 'b2', ['page'], 'editor-1');
    expect(onlyOwnEditsElsewhere('b1', 'b2', 'page')).toBe(false);
    expect(onlyOwnEditsElsewhere('b1', 'b2', 'page', 'editor-2')).toBe(false);
    expect(onlyOwnEditsElsewhere('b1', 'b2', 'page', 'editor-1')).toBe(true);
  });

  it('does not follow revisions someone else made', () => {
    recordOwnEdit('c1', 'c2', []);
    expect(onlyOwnEditsElsewhere('c1', 'c3', 'page')).toBe(false);
    expect(onlyOwnEditsElsewhere('c0', 'c2', 'page')).toBe(false);
  });
});
