import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { AccountDefaults, AccountMigrationConfig } from '#shared/contract/entities/account.ts';
import { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { Group, TagDefinition } from '#shared/contract/entities/groups.ts';
import { SupervisionHit, SupervisionItem, SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { TransferConfig } from '#shared/contract/entities/transfers.ts';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { FIELD_LABELS, fieldLabel, KIND_FIELD_LABELS, valueLabel } from './field-labels.ts';
import { comparableRecord } from './record-diff.ts';

/** The contract entity each kind's screen edits (the record the panel compares). */
const ENTITIES: ReadonlyArray<[VersionedEntity, z.ZodObject]> = [
  ['legal-hold', LegalHold],
  ['group', Group],
  ['tag-definition', TagDefinition],
  ['device-user', DeviceUser],
  ['transfer-config', TransferConfig],
  ['client-app', ClientAppConfiguration],
  ['account-defaults', AccountDefaults],
  ['migration-settings', AccountMigrationConfig],
  ['supervision-policy', SupervisionPolicy],
  ['supervision-item', SupervisionItem],
  ['supervision-item', SupervisionHit],
];

/** A field the panel compares: not a person's kept name (shown with its `_by` field), nor one it leaves out. */
function comparedFields(entity: VersionedEntity, schema: z.ZodObject): string[] {
  const names = Object.keys(schema.shape).filter((name) => !name.endsWith('_actor'));
  const kept = comparableRecord(entity, Object.fromEntries(names.map((name) => [name, 'x'])));
  return names.filter((name) => Object.hasOwn(kept, name));
}

describe('field labels', () => {
  it.each(ENTITIES)('names every field of a %s the panel compares in words of its own, never by its stored name', (entity, schema) => {
    const fields = comparedFields(entity, schema);
    expect(fields.length).toBeGreaterThan(1);
    const unnamed = fields.filter((name) => !Object.hasOwn(FIELD_LABELS, name) && !Object.hasOwn(KIND_FIELD_LABELS[entity] ?? {}, name));
    expect(unnamed).toEqual([]);
  });

  it('names a field by its kind’s screen where the name means another thing there', () => {
    expect(fieldLabel('raised_at')).toBe('Written');
    expect(fieldLabel('raised_at', 'supervision-item')).toBe('Raised');
    expect(fieldLabel('is_active', 'device-user')).toBe('Onboarded');
    expect(fieldLabel('is_active', 'transfer-config')).toBe('Active');
    expect(fieldLabel('created_at', 'legal-hold')).toBe('First placed');
  });

  it('words wire values of the new kinds as their screens do', () => {
    expect(valueLabel('target_type', 'PortalUser')).toBe('Portal user');
    expect(valueLabel('target_type', 'S3')).toBe('Amazon S3');
    expect(valueLabel('transfer_file_format', 'ZippedWithPassword')).toBe('Zip archive with password');
    expect(valueLabel('services', 'calls')).toBe('Calls');
  });
});
