import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLocalKeyService } from '../core/adapters/local/local-key-service.ts';
import { deviceKeysOf } from './device-keys.ts';
import { ValidationError } from '../core/errors.ts';
import { createMemoryTable } from '../core/testing/memory-table.ts';
import { openUpload, sealUpload } from './envelope.ts';
import { deviceFields, utcOf } from '../device-data/public.ts';

const deps = { table: createMemoryTable([]), keys: createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'envelope-')) }) };

describe('sealed uploads', () => {
  it('opens what a device seals, and refuses any flipped byte, other kind or other tenant with a 400', async () => {
    const { kek, kekId } = await deviceKeysOf(deps, 'envtest');
    const sealed = sealUpload({ kek, client: 'envtest', keyId: kekId }, 'gps', [{ latitude: 1, longitude: 2, timestamp: '2020-01-01T00:00:00Z' }]);
    expect(await openUpload(deps, 'envtest', 'gps', sealed)).toEqual([{ latitude: 1, longitude: 2, timestamp: '2020-01-01T00:00:00Z' }]);
    await expect(openUpload(deps, 'envtest', 'telemetry', sealed)).rejects.toThrow(ValidationError);
    await expect(openUpload(deps, 'other', 'gps', sealed)).rejects.toThrow('body.key_id');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('meta', 'encrypted_dek', 'iv'), fc.nat(), async (field, at) => {
        const bytes = Buffer.from(sealed[field], 'base64');
        bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ 0x40;
        await expect(openUpload(deps, 'envtest', 'gps', { ...sealed, [field]: bytes.toString('base64') })).rejects.toThrow(ValidationError);
      }),
      { numRuns: 40 },
    );
  });
});

describe('device times and fields', () => {
  it('reads DateTimeIso as UTC, honours offsets, refuses the rest', () => {
    expect(utcOf('2021-03-02 11:30:00')).toBe('2021-03-02T11:30:00.000Z');
    expect(utcOf('2021-03-02T11:30:00.123456Z')).toBe('2021-03-02T11:30:00.123Z');
    expect(utcOf('2021-03-02T11:30:00+02:00')).toBe('2021-03-02T09:30:00.000Z');
    for (const bad of ['yesterday', '2021-02-30T00:00:00Z', '', '1969-12-31T23:59:59Z', '2021-03-02T25:00:00Z']) expect(utcOf(bad)).toBeUndefined();
  });

  it('never takes keys, tenant or holder from a device report', () => {
    const report = { pk: 'x', gsi1pk: 'C#acme#DEVICE_GPS', entity: 'Device', client: 'acme', device_user_reference: 'someone', health: { battery_level: 3 } };
    expect(deviceFields(report)).toEqual({ health: { battery_level: 3 } });
  });
});
