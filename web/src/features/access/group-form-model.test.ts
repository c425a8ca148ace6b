import { describe, expect, it } from 'vitest';
import { checkGroupForm, initialTagRows, tagLabel } from './group-form-model.ts';

const definitions = [
  { tag_key: 'region', tag_values: ['north', 'south'], is_required: true, default_value: 'north' },
  { tag_key: 'note', tag_values: null, is_required: false },
];

describe('checkGroupForm', () => {
  it('accepts defined keys with allowed values', () => {
    const result = checkGroupForm('sales', [{ key: 'region', value: 'south' }, { key: 'note', value: 'anything' }], definitions);
    expect(result).toEqual({
      ok: true,
      reference: 'sales',
      body: { tags: [{ tag_key: 'region', tag_value: 'south' }, { tag_key: 'note', tag_value: 'anything' }] },
    });
  });

  it('refuses what the server would refuse, with its paths', () => {
    const result = checkGroupForm('s', [
      { key: 'region', value: 'east' },
      { key: 'colour', value: 'red' },
      { key: 'note', value: 'x'.repeat(256) },
    ], definitions);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.lines).toContain('params.group_reference: Must be between 2 and 255 characters');
    expect(result.lines).toContain('body.tags.0.tag_value: Must be one of the values allowed by the tag definition');
    expect(result.lines).toContain('body.tags.1.tag_key: Unknown tag');
    expect(result.lines).toContain('body.tags.2.tag_value: Must be at most 255 characters');
  });

  it('refuses duplicate keys and more than 50 tags', () => {
    const duplicate = checkGroupForm('sales', [{ key: 'note', value: 'a' }, { key: 'note', value: 'b' }]);
    expect(duplicate.ok || duplicate.lines).toContain('body.tags: Must not contain duplicates');
    const many = checkGroupForm('sales', Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: '' })));
    expect(many.ok || many.lines).toContain('body.tags: Must contain between 0 and 50 items');
  });
});

describe('tag rows and labels', () => {
  it('starts a new group with the required tags at their default', () => {
    expect(initialTagRows(undefined, definitions)).toEqual([{ key: 'region', value: 'north' }]);
  });

  it('labels a tag key=value', () => {
    expect(tagLabel({ tag_key: 'region', tag_value: 'north' })).toBe('region=north');
    expect(tagLabel({ tag_key: 'vip', tag_value: '' })).toBe('vip');
  });
});
