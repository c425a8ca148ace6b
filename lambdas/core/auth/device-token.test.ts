import { describe, expect, it } from 'vitest';
import { createMemoryTable } from '../testing/memory-table.ts';
import { keys } from '../store/keys.ts';
import { createDeviceTokens, DeviceTokenRefusedError, deviceTokenSecret } from './device-token.ts';

const secret = 'x'.repeat(40);
const at = (iso: string) => ({ now: () => new Date(iso) });

async function setup(item: Record<string, unknown> = {}) {
  const table = createMemoryTable();
  const { pk, sk } = keys.device.item('demo', 'DEV1');
  await table.put({ pk, sk, entity: 'Device', device_reference: 'DEV1', activated_at: '2026-01-01T00:00:00.000Z', is_deactivated: false, group: 'g1', ...item });
  return table;
}

describe('device tokens', () => {
  it('verifies a token of an active device, with its group', async () => {
    const tokens = createDeviceTokens({ secret, table: await setup(), clock: at('2026-01-02T00:00:00Z') });
    const { token } = tokens.issue({ client: 'demo', deviceReference: 'DEV1', activatedAt: '2026-01-01T00:00:00.000Z' });
    await expect(tokens.verify(token)).resolves.toMatchObject({ kind: 'device', client: 'demo', deviceReference: 'DEV1', group: 'g1' });
  });

  it('refuses another secret, an expired token, a deactivated device and a stale activation epoch', async () => {
    const table = await setup();
    const issued = createDeviceTokens({ secret, table, clock: at('2026-01-02T00:00:00Z') }).issue({
      client: 'demo',
      deviceReference: 'DEV1',
      activatedAt: '2026-01-01T00:00:00.000Z',
    }).token;
    await expect(createDeviceTokens({ secret: 'y'.repeat(40), table, clock: at('2026-01-02T00:00:00Z') }).verify(issued)).rejects.toThrow('Device token invalid');
    await expect(createDeviceTokens({ secret, table, clock: at('2026-01-03T00:00:00Z') }).verify(issued)).rejects.toBeInstanceOf(DeviceTokenRefusedError);
    const deactivated = createDeviceTokens({ secret, table: await setup({ is_deactivated: true }), clock: at('2026-01-02T00:00:00Z') });
    await expect(deactivated.verify(issued)).rejects.toThrow('deactivated');
    const reactivated = createDeviceTokens({ secret, table: await setup({ activated_at: '2026-01-01T12:00:00.000Z' }), clock: at('2026-01-02T00:00:00Z') });
    await expect(reactivated.verify(issued)).rejects.toThrow('superseded');
  });

  it('refuses malformed tokens without reading anything', async () => {
    const tokens = createDeviceTokens({ secret, table: await setup(), clock: at('2026-01-02T00:00:00Z') });
    for (const token of ['', 'abc', 'dt1..', 'dt1.e30.', 'jwt.a.b', 'dt1.%%%.%%%']) await expect(tokens.verify(token)).rejects.toThrow();
  });

  it('derives its secret from CURSOR_SECRET under its own label unless one is set', () => {
    const derived = deviceTokenSecret({ CURSOR_SECRET: secret });
    expect(derived).not.toBe(secret);
    expect(derived).toHaveLength(64);
    expect(deviceTokenSecret({ CURSOR_SECRET: secret, DEVICE_TOKEN_SECRET: 'z'.repeat(32) })).toBe('z'.repeat(32));
  });
});
