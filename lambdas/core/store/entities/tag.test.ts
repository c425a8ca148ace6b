import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readTag, tagToItem, toTagDefinition, type TagItem } from './tag.ts';

const tag: TagItem = {
  client: 'acme',
  tag_key: 'region',
  tag_values: ['north', 'south'],
  is_required: true,
  default_value: 'north',
  description: 'Where the team sits',
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('tag definition item', () => {
  it('round-trips with its keys, the description kept', () => {
    const item = tagToItem('acme', tag);
    expect(item).toMatchObject(keys.tagDefinition.item('acme', 'region'));
    expect(toTagDefinition(readTag(item))).toEqual(tag);
  });

  it('keeps free-text definitions (tag_values null)', () => {
    expect(readTag(tagToItem('acme', { ...tag, tag_values: null, is_required: false, default_value: null })).tag_values).toBeNull();
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...tagToItem('acme', tag), tag_values: 'north' };
    expect(() => readTag(item)).toThrow(InternalError);
    expect(() => readTag(item)).toThrow(/TagDefinition item .* tag_values: /);
  });
});
