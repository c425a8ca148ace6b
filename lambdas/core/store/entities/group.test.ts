import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readGroup, statsAttribute, toGroup } from './group.ts';

const item = {
  ...keys.group.item('acme', 'north'),
  client: 'acme',
  group_reference: 'north',
  tags: [{ tag_key: 'region', tag_value: 'north' }],
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
  [statsAttribute('device_users')]: 3,
  [statsAttribute('actual_devices')]: 2,
  [statsAttribute('active_users', 'calls')]: 1,
};

describe('group item', () => {
  it('reads the own attributes and folds the flat counters into stats (missing ones 0, only counted services)', () => {
    expect(toGroup(readGroup(item))).toEqual({
      client: 'acme',
      group_reference: 'north',
      tags: [{ tag_key: 'region', tag_value: 'north' }],
      updated_by: 'u-1',
      updated_at: '2026-01-02T03:04:05.000Z',
      stats: {
        device_users: 3,
        expected_devices: 0,
        actual_devices: 2,
        services: { calls: { used_licenses: 0, expected_devices: 0, active_devices: 0, active_users: 1 } },
      },
    });
  });

  it('reads a group written before tags existed as having none', () => {
    const { tags: _tags, ...old } = item;
    expect(readGroup(old).tags).toEqual([]);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const broken = { ...item, tags: [{ tag_key: 'region' }] };
    expect(() => readGroup(broken)).toThrow(InternalError);
    expect(() => readGroup(broken)).toThrow(/Group item .* tags\.0\.tag_value: /);
  });
});
