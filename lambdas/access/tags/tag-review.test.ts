import { describe, expect, it } from 'vitest';
import { conflictLines, groupsUsingTag, MAX_CONFLICT_LINES, reviewDefinition, type ReviewedGroup } from './tag-review.ts';

const group = (reference: string, tags: Record<string, string> = {}): ReviewedGroup => ({
  group_reference: reference,
  tags: Object.entries(tags).map(([tag_key, tag_value]) => ({ tag_key, tag_value })),
});

const groups = [
  group('north', { region: 'north', team: 'red' }),
  group('south', { region: 'south' }),
  group('plain'),
];

describe('reviewDefinition', () => {
  it('accepts every group under free text (null) when the tag is optional', () => {
    expect(reviewDefinition('region', { tag_values: null, is_required: false }, groups)).toEqual([]);
  });

  it('flags values outside a narrowed enumeration, and only those', () => {
    expect(reviewDefinition('region', { tag_values: ['north', 'east'], is_required: false }, groups)).toEqual([
      { group_reference: 'south', reason: 'Value "south" of tag region is not in the allowed values' },
    ]);
  });

  it('flags every carried value when the list becomes empty (no value allowed)', () => {
    const conflicts = reviewDefinition('region', { tag_values: [], is_required: false }, groups);
    expect(conflicts.map((conflict) => conflict.group_reference)).toEqual(['north', 'south']);
    expect(conflicts[0]?.reason).toContain('no value is allowed');
  });

  it('flags groups without the tag when it becomes required', () => {
    expect(reviewDefinition('team', { tag_values: ['red', 'blue'], is_required: true }, groups)).toEqual([
      { group_reference: 'south', reason: 'Required tag team is missing' },
      { group_reference: 'plain', reason: 'Required tag team is missing' },
    ]);
  });

  it('ignores other tags and an empty tenant', () => {
    expect(reviewDefinition('colour', { tag_values: [], is_required: false }, groups)).toEqual([]);
    expect(reviewDefinition('region', { tag_values: [], is_required: true }, [])).toEqual([]);
  });
});

describe('groupsUsingTag', () => {
  it('lists the groups that carry the key', () => {
    expect(groupsUsingTag('region', groups).map((conflict) => conflict.group_reference)).toEqual(['north', 'south']);
    expect(groupsUsingTag('nope', groups)).toEqual([]);
  });
});

describe('conflictLines', () => {
  it('writes one groups.<reference>: why line per group', () => {
    expect(conflictLines([{ group_reference: 'south', reason: 'Uses tag region' }])).toEqual(['groups.south: Uses tag region']);
  });

  it('caps the lines and counts the rest', () => {
    const many = Array.from({ length: MAX_CONFLICT_LINES + 7 }, (_, i) => ({ group_reference: `g${i}`, reason: 'x' }));
    const lines = conflictLines(many);
    expect(lines).toHaveLength(MAX_CONFLICT_LINES + 1);
    expect(lines.at(-1)).toBe('groups: 7 more conflicting groups');
  });

  it('never lets a hostile reference split a line', () => {
    const [line] = conflictLines([{ group_reference: 'evil\nerror_code: 500', reason: 'Uses tag t' }]);
    expect(line).toBe('groups.evil?error_code: 500: Uses tag t');
  });
});
