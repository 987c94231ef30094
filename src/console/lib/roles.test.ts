import { describe, expect, it } from 'vitest';
import { ROLE_SELECT_OPTIONS, ROLE_VALUE_OPTIONS, roleLabel, roleToValue, valueToRole } from './roles';

describe('roles', () => {
  it('maps a guest (null) to the select value "guest" and back', () => {
    expect(roleToValue(null)).toBe('guest');
    expect(valueToRole('guest')).toBeNull();
    expect(roleToValue('edit')).toBe('edit');
    expect(valueToRole('edit')).toBe('edit');
  });

  it('treats an unknown value as guest rather than inventing a role', () => {
    expect(valueToRole('owner')).toBeNull();
    expect(valueToRole('')).toBeNull();
  });

  it('labels roles for people and lists guest last', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel(null)).toBe('Guest');
    expect(ROLE_VALUE_OPTIONS.at(-1)).toEqual({ value: 'guest', label: 'Guest' });
    expect(ROLE_SELECT_OPTIONS.at(-1)?.value).toBeNull();
    expect(ROLE_VALUE_OPTIONS).toHaveLength(7);
  });
});
