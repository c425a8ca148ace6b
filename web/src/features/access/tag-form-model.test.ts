import { describe, expect, it } from 'vitest';
import { allowedValuesText, checkTagForm, EMPTY_TAG_FORM, tagFormValuesOf } from './tag-form-model.ts';

describe('checkTagForm', () => {
  it('builds a free-text definition', () => {
    expect(checkTagForm({ ...EMPTY_TAG_FORM, key: ' region ' })).toEqual({
      ok: true,
      key: 'region',
      body: { tag_values: null, is_required: false, default_value: null, force_update: false },
    });
  });

  it('builds a listed definition and carries force_update', () => {
    const result = checkTagForm({ key: 'region', mode: 'list', values: ['north', 'south'], isRequired: true, defaultValue: 'north' }, true);
    expect(result.ok && result.body).toEqual({ tag_values: ['north', 'south'], is_required: true, default_value: 'north', force_update: true });
  });

  it('refuses what the contract refuses, as path: message lines', () => {
    const result = checkTagForm({ key: '', mode: 'list', values: ['a', 'a'], isRequired: true, defaultValue: 'b' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.lines).toContain('params.tag_key: Must be between 1 and 60 characters');
    expect(result.lines).toContain('body.tag_values: Must not contain duplicates');
  });

  it('needs a default and values for a required tag', () => {
    const result = checkTagForm({ key: 'k', mode: 'free', values: [], isRequired: true, defaultValue: '' });
    expect(result.ok || result.lines).toContain('body.default_value: A required tag needs a default value and a non-empty value list');
  });
});

describe('display', () => {
  it('describes allowed values', () => {
    expect(allowedValuesText({ tag_values: null })).toBe('Free text');
    expect(allowedValuesText({ tag_values: [] })).toBe('No value allowed');
    expect(allowedValuesText({ tag_values: ['a', 'b'] })).toBe('a, b');
  });

  it('fills the form from a definition', () => {
    expect(tagFormValuesOf({ tag_key: 'k', tag_values: ['a'], is_required: true, default_value: 'a' })).toEqual({
      key: 'k',
      mode: 'list',
      values: ['a'],
      isRequired: true,
      defaultValue: 'a',
    });
  });
});
