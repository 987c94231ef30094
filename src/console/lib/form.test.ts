import { describe, expect, it } from 'vitest';
import { changedFields } from './form';

const formWith = (dirtyFields: object) => ({ formState: { dirtyFields } });

describe('changedFields', () => {
  it('sends only the fields the user changed', () => {
    const values = { title: 'New', emoji: '📘', visibility: 'public' };
    expect(changedFields(formWith({ title: true }), values)).toEqual({ title: 'New' });
    expect(changedFields(formWith({ title: true, visibility: true }), values)).toEqual({
      title: 'New',
      visibility: 'public',
    });
  });

  it('is null when nothing changed, or a field was changed and changed back', () => {
    expect(changedFields(formWith({}), { title: 'Same' })).toBeNull();
    expect(changedFields(formWith({ title: false }), { title: 'Same' })).toBeNull();
  });

  it('sends null for an emptied clearable field, and the empty value for the others', () => {
    const values = { emoji: '', icon: undefined as string | undefined, description: '' };
    expect(changedFields(formWith({ emoji: true, icon: true, description: true }), values, ['emoji', 'icon'])).toEqual({
      emoji: null,
      icon: null,
      description: '',
    });
  });

  it('counts a changed nested field (react-hook-form marks it with an object)', () => {
    expect(changedFields(formWith({ position: { before: true } }), { position: { before: 'a' } })).toEqual({
      position: { before: 'a' },
    });
  });
});
