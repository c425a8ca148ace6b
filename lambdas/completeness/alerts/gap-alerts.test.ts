import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFixedClock } from '../../core/adapters/local/clocks.ts';
import { keys } from '../../core/store/keys.ts';
import { createMemoryTable } from '../../core/testing/memory-table.ts';
import { deviceName, gapAlertKey, lengthInWords, raiseGapAlert, raiseSilentDeviceAlert, silentAlertKey } from './gap-alerts.ts';

// What is raised, as the alert engine receives it (the engine itself is proved against DynamoDB Local in the alerts and
// reconciliation integration tests; the memory table does not evaluate its conditions).
const raised = vi.hoisted(() => [] as Array<Record<string, unknown>>);
vi.mock('../../alerts/public.ts', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  raiseAlert: async (_deps: unknown, _client: string, input: Record<string, unknown>) => {
    raised.push(input);
    return { alert: {}, created: true };
  },
}));

const client = 'gaps';
const device = 'DEV1';
const entry = {
  entry_id: 'c-1',
  payload_type: 'Call' as const,
  direction: 'O' as const,
  start_time: '2026-11-20T14:02:09Z',
  phone_number: '+44 7700 900456',
  duration: 200,
  device_user_reference: 'USER1',
};

function depsWith(deviceItem?: Record<string, unknown>) {
  const table = createMemoryTable(deviceItem === undefined ? [] : [{ ...keys.device.key(client, device), entity: 'Device', device_reference: device, ...deviceItem }]);
  return { table, clock: createFixedClock('2026-11-22T00:00:00Z') };
}

beforeEach(() => void raised.splice(0));

describe('gap alerts', () => {
  it('raises a Scoped DeviceAlert keyed per device and day, naming the device, its holder and the missing call', async () => {
    const deps = depsWith({ model: 'Pixel 8', phone_numbers: [{ phone_number: '+44 7700 900123' }], first_name: 'Jane', surname: 'Doe' });
    await raiseGapAlert(deps, client, { deviceReference: device, day: '2026-11-20', outcome: 'Missing', entry });
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      scope: 'ops',
      type: 'DeviceAlert',
      keyType: 'Scoped',
      key: 'completeness:DEV1:2026-11-20',
      severity: 'High',
      subject: 'Capture gaps on 2026-11-20 from Pixel 8 (+44 7700 900123)',
      message:
        'Call missing on 2026-11-20 from Pixel 8 (+44 7700 900123) held by Jane Doe: the phone logged an outgoing call with +44 7700 900456 at 14:02 UTC, 3 min 20 s and Verity holds no recording of it',
    });
    const links = (raised[0]?.relatedEntities as Array<{ page_link: string }>).map((related) => related.page_link);
    expect(links).toEqual(['/dashboard/devices/DEV1', '/dashboard/devices/users/USER1']);
  });

  it('says why a Short entry is short, and names a message by its type', async () => {
    const deps = depsWith({ model: 'Pixel 8' });
    await raiseGapAlert(deps, client, { deviceReference: device, day: '2026-11-20', outcome: 'Short', entry: { ...entry, recording_duration: 95 } });
    await raiseGapAlert(deps, client, { deviceReference: device, day: '2026-11-20', outcome: 'Short', entry: { ...entry, direction: 'CC', is_intermittent: true } });
    await raiseGapAlert(deps, client, {
      deviceReference: device,
      day: '2026-11-20',
      outcome: 'Missing',
      entry: { entry_id: 's-1', payload_type: 'SMS', direction: 'I', start_time: '2026-11-20T09:00:00Z' },
    });
    expect(raised.map((input) => input.message)).toEqual([
      'Call recorded short on 2026-11-20 from Pixel 8 (DEV1): the phone logged an outgoing call with +44 7700 900456 at 14:02 UTC, 3 min 20 s and only 1 min 35 s of it is recorded',
      'Call recorded short on 2026-11-20 from Pixel 8 (DEV1): the phone logged a conference call with +44 7700 900456 at 14:02 UTC, 3 min 20 s and the recording is intermittent',
      'SMS missing on 2026-11-20 from Pixel 8 (DEV1): the phone logged an incoming SMS at 09:00 UTC and Verity holds no recording of it',
    ]);
    expect(new Set(raised.map((input) => input.key))).toEqual(new Set([gapAlertKey(device, '2026-11-20')]));
  });

  it('names a device it cannot read by its reference, and the holder by the entry', async () => {
    await raiseGapAlert(depsWith(), client, { deviceReference: device, day: '2026-11-21', outcome: 'Missing', entry });
    expect(raised[0]?.subject).toBe('Capture gaps on 2026-11-21 from device DEV1');
    expect((raised[0]?.relatedEntities as unknown[]).length).toBe(2);
  });
});

describe('silent device alert', () => {
  it('is Scoped per device whatever the day, and says what was last heard', async () => {
    const deps = depsWith({ model: 'Pixel 8', phone_numbers: [{ phone_number: '+44 7700 900123' }], device_user_reference: 'USER1' });
    await raiseSilentDeviceAlert(deps, client, { deviceReference: device, lastTelemetryAt: '2026-11-20T08:00:00.000Z', silentHours: 24 });
    expect(raised[0]).toMatchObject({
      type: 'DeviceAlert',
      keyType: 'Scoped',
      key: silentAlertKey(device),
      subject: 'Device silent: Pixel 8 (+44 7700 900123)',
      message:
        'Pixel 8 (+44 7700 900123) has sent nothing for more than 24 hours (no ledger report and its last telemetry at 2026-11-20T08:00:00.000Z): calls and messages on it may not be recorded',
    });
    expect((raised[0]?.relatedEntities as unknown[]).length).toBe(2);
  });
});

describe('words', () => {
  it('says lengths as a person reads them', () => {
    expect([lengthInWords(0), lengthInWords(59), lengthInWords(60), lengthInWords(61.4)]).toEqual(['0 s', '59 s', '1 min', '1 min 1 s']);
  });
  it('names a device by model and number when it has them', () => {
    expect(deviceName('D', undefined)).toBe('device D');
  });
});

describe('silent device alert, once per silence', () => {
  const heard = '2026-11-20T08:00:00.000Z';
  async function withAlert(firstOccurrence: string, state = 'Triggered') {
    const deps = depsWith({ model: 'Pixel 8' });
    const pointer = { ...keys.alert.scopedKey(client, 'ops', silentAlertKey(device)), client, alert_scope: 'ops', alert_key: silentAlertKey(device), alert_reference: 'A1' };
    await deps.table.put(pointer);
    await deps.table.put({
      ...keys.alert.key(client, 'A1'),
      entity: 'Alert',
      client,
      alert_reference: 'A1',
      alert_scope: 'ops',
      alert_type: 'DeviceAlert',
      alert_subject: 's',
      alert_key: silentAlertKey(device),
      alert_key_type: 'Scoped',
      alert_message: 'm',
      alert_state: state,
      alert_severity: 'Medium',
      related_entities: [],
      first_occurrence: firstOccurrence,
      last_occurrence: firstOccurrence,
      occurrence_count: 1,
      dismiss_count: 0,
    });
    return deps;
  }

  it('raises nothing more while the silence it told of goes on, even once cleared', async () => {
    expect(await raiseSilentDeviceAlert(await withAlert('2026-11-21T09:00:00.000Z'), client, { deviceReference: device, lastTelemetryAt: heard, silentHours: 24 })).toBeUndefined();
    expect(await raiseSilentDeviceAlert(await withAlert('2026-11-21T09:00:00.000Z', 'Cleared'), client, { deviceReference: device, lastTelemetryAt: heard, silentHours: 24 })).toBeUndefined();
    expect(raised).toEqual([]);
  });

  it('raises again for a new silence (heard from after the last alert began)', async () => {
    await raiseSilentDeviceAlert(await withAlert('2026-11-19T09:00:00.000Z'), client, { deviceReference: device, lastLedgerAt: heard, silentHours: 24 });
    expect(raised).toHaveLength(1);
  });

  it('raises nothing for a device never heard from', async () => {
    expect(await raiseSilentDeviceAlert(depsWith(), client, { deviceReference: device, silentHours: 24 })).toBeUndefined();
    expect(raised).toEqual([]);
  });
});
