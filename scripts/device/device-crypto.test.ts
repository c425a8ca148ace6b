import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { createLocalKeyService } from '#core/adapters/local/local-key-service.ts';
import { deviceKeysOf, kekForDevice, openDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { openKek, sealReference } from './device-crypto.ts';

/** The simulator's client-side formats against the server's own code: a drift on either side fails here. */
const dataDir = mkdtempSync(join(tmpdir(), 'verity-device-crypto-'));
const deps = { table: createMemoryTable(), keys: createLocalKeyService({ dataDir }) };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('device crypto (simulator side)', () => {
  it('seals a reference the server opens, for its own tenant only', async () => {
    const { enrolmentKey } = await deviceKeysOf(deps, 'simtest');
    const reference = ulid();
    const sealed = sealReference(enrolmentKey, 'simtest', reference);
    await expect(openDeviceReference(deps, sealed)).resolves.toEqual({ client: 'simtest', deviceReference: reference });
    // Relabelled for another tenant (which has keys too): the AAD no longer matches.
    await deviceKeysOf(deps, 'simother');
    await expect(openDeviceReference(deps, sealReference(enrolmentKey, 'simother', reference))).rejects.toThrow('Device credentials are invalid');
    await expect(openDeviceReference(deps, sealReference(Buffer.alloc(32, 1), 'simtest', reference))).rejects.toThrow('Device credentials are invalid');
  });

  it('opens the KEK of the keys exchange, and refuses it under another key id', async () => {
    const stored = await deviceKeysOf(deps, 'simtest');
    const { key_id, kek } = await kekForDevice(deps, 'simtest');
    expect(openKek(stored.enrolmentKey, 'simtest', key_id, kek).equals(stored.kek)).toBe(true);
    expect(() => openKek(stored.enrolmentKey, 'simtest', `${key_id}x`, kek)).toThrow();
  });
});
