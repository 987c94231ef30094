import { describe, expect, it } from 'vitest';
import { memberCount, shouldLoadMore } from './list';

describe('shouldLoadMore', () => {
  const more = { hasNextPage: true, isFetching: false };

  it('asks for the next page once the drawn rows come near the end of what is loaded', () => {
    expect(shouldLoadMore(10, 100, more)).toBe(false);
    expect(shouldLoadMore(69, 100, more)).toBe(true);
    expect(shouldLoadMore(99, 100, more)).toBe(true);
    expect(shouldLoadMore(100, 100, more, 0)).toBe(true);
    expect(shouldLoadMore(98, 100, more, 0)).toBe(false);
  });

  it('waits while a page is coming, stops at the last page, and does nothing before rows are drawn', () => {
    expect(shouldLoadMore(99, 100, { hasNextPage: true, isFetching: true })).toBe(false);
    expect(shouldLoadMore(99, 100, { hasNextPage: false, isFetching: false })).toBe(false);
    expect(shouldLoadMore(undefined, 100, more)).toBe(false);
  });
});

describe('memberCount', () => {
  it('says member or members with grouped digits', () => {
    expect(memberCount(1)).toBe('1 member');
    expect(memberCount(0)).toBe('0 members');
    expect(memberCount(10000)).toBe('10,000 members');
  });
});
