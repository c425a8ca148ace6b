import { describe, expect, it } from 'vitest';
import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import { resolveGroupTags } from './group-tags.ts';

const definitions: TagDefinition[] = [
  { tag_key: 'region', tag_values: ['north', 'south'], is_required: true, default_value: 'north' },
  { tag_key: 'note', tag_values: null, is_required: false, default_value: null },
  { tag_key: 'locked', tag_values: [], is_required: false, default_value: null },
];

describe('resolveGroupTags', () => {
  it('keeps allowed values and fills a missing required tag with its default', () => {
    expect(resolveGroupTags([{ tag_key: 'note', tag_value: 'anything at all' }], definitions)).toEqual({
      ok: true,
      tags: [
        { tag_key: 'note', tag_value: 'anything at all' },
        { tag_key: 'region', tag_value: 'north' },
      ],
    });
  });

  it('does not overwrite a required tag the request sets', () => {
    const resolved = resolveGroupTags([{ tag_key: 'region', tag_value: 'south' }], definitions);
    expect(resolved).toEqual({ ok: true, tags: [{ tag_key: 'region', tag_value: 'south' }] });
  });

  it('names unknown keys and values outside the enumeration by index', () => {
    expect(
      resolveGroupTags(
        [
          { tag_key: 'region', tag_value: 'west' },
          { tag_key: 'ghost', tag_value: 'x' },
          { tag_key: 'locked', tag_value: '' },
        ],
        definitions,
      ),
    ).toEqual({
      ok: false,
      lines: [
        'body.tags.0.tag_value: Must be one of the values allowed by the tag definition',
        'body.tags.1.tag_key: Unknown tag',
        'body.tags.2.tag_value: Must be one of the values allowed by the tag definition',
      ],
    });
  });

  it('refuses a group that filling required tags pushes over 50', () => {
    const many: TagDefinition[] = Array.from({ length: 50 }, (_, i) => ({ tag_key: `k${i}`, tag_values: null, is_required: false }));
    const requested = many.map((definition) => ({ tag_key: definition.tag_key, tag_value: 'v' }));
    expect(resolveGroupTags(requested, [...many, ...definitions])).toEqual({
      ok: false,
      lines: ['body.tags: Must contain between 0 and 50 items'],
    });
    expect(resolveGroupTags(requested, many)).toMatchObject({ ok: true });
  });
});
