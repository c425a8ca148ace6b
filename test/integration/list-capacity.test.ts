import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readAccount } from '#core/store/entities/account.ts';
import { alertToItem } from '#core/store/entities/alert.ts';
import { deviceToItem } from '#core/store/entities/device.ts';
import { deviceUserToItem } from '#core/store/entities/device-user.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { telemetryToItems } from '#core/store/entities/telemetry.ts';
import { keys } from '#core/store/keys.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { alertAccessFromContext } from '../../lambdas/alerts/alert-permissions.ts';
import { listAlerts } from '../../lambdas/alerts/list-alerts.ts';
import { recordItem } from '../../lambdas/audit/trail/activity-log.ts';
import { listDeviceActivities, listLatestTelemetry } from '../../lambdas/device-data/reads.ts';
import { listDeviceUsers } from '../../lambdas/devices/device-users/device-users.ts';
import { telemetryIndexBackfillJob } from '../../lambdas/jobs/telemetry-index-backfill.ts';
import { listPayloads } from '../../lambdas/payloads/payload-lists.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * What a page of a list reads on DynamoDB Local, counted by the capacity meter (items and read units as DynamoDB
 * reports them): a list's cost is its page, not the tenant's history or fleet. `GET telemetry` reads the devices that
 * reported, however many never did; a filtered list (every list skips records retention deleted) reads what its page
 * needs and one more when its filter leaves nothing out.
 */
let tenant: RunTenant;
let unindexed: RunTenant;

const PAGE = 50;
/** Records of each list, more than a page. */
const RECORDS = 120;
const REPORTING = 20;
const NOW = new Date();

const everything = {
  role_reference: 'everything',
  permissions: [{ actions_matching: '*', is_denied: false, is_regex: false }],
  payload_types: [...PAYLOAD_TYPES],
  cidr_ranges: [],
  alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
  is_system: false,
} as unknown as Role;
const access = createAccessContext({ roles: [everything], ip: undefined, isClientApp: false });
const callerOf = (on: RunTenant, action: string) => tenantCaller(on.deps, on.client, access, { action });

async function write(deps: Dependencies, items: readonly TableItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 100) {
    await deps.table.transactWrite(items.slice(start, start + 100).map((item) => ({ kind: 'put' as const, item })));
  }
}

const at = (index: number) => new Date(NOW.getTime() - (index + 1) * 60_000).toISOString();

function device(client: string, reference: string): TableItem {
  const time = NOW.toISOString();
  return deviceToItem(client, { client, device_reference: reference, services: ['calls'], imeis: [], is_deactivated: false, is_legacy: false, phone_numbers: [], updated_at: time, updated_by: 'test' });
}

function report(client: string, reference: string, index: number): [TableItem, TableItem] {
  const time = at(index);
  return telemetryToItems(client, { client, device_reference: reference, received_at: time, collected_at: time, health: { battery_level: 50 + (index % 50) } }, `r${index}`);
}

/** `count` devices named `<prefix>-<n>`, the first `reporting` of them with a latest report (and its history item). */
function fleet(client: string, prefix: string, count: number, reporting: number): TableItem[] {
  const references = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(4, '0')}`);
  return [...references.map((reference) => device(client, reference)), ...references.slice(0, reporting).flatMap((reference, index) => report(client, reference, index))];
}

function history(client: string): TableItem[] {
  const items: TableItem[] = [];
  for (let index = 0; index < RECORDS; index += 1) {
    const time = at(index);
    items.push(recordItem({ trail: 'device', client, entry: { log_id: ulid(), activity_time: time, device_reference: 'dev-0000', action: 'device:Upload', is_allowed: true, status_code: 200 } }, new Date(time)).item);
    items.push(
      deviceUserToItem(client, { client, device_user_reference: `user-${index}`, services: ['calls'], expected_device_count: 1, first_name: 'Page', surname: `User ${index}`, is_active: true, is_legacy: false, updated_at: time, updated_by: 'test' }),
    );
    items.push(
      alertToItem(client, {
        client,
        alert_reference: ulid(Date.parse(time)),
        alert_scope: 'ops',
        alert_type: 'DeviceAlert',
        alert_subject: 'dev-0000',
        alert_message: 'Device has not uploaded for 3 days',
        alert_state: 'Triggered',
        alert_severity: 'Medium',
        first_occurrence: time,
        last_occurrence: time,
        occurrence_count: 1,
      }),
    );
    items.push(
      payloadToItem(client, {
        client,
        payload_reference: ulid(Date.parse(time)),
        payload_type: 'Call',
        payload_state: 'Processed',
        payload_time: time,
        device_reference: 'dev-0000',
        checksum: 'ab'.repeat(32),
        processed_at: time,
        uploaded_at: time,
      }),
    );
  }
  return items;
}

beforeAll(async () => {
  tenant = await createRunTenant('listcap');
  unindexed = await createRunTenant('telemetry-old');
  await write(tenant.deps, [...fleet(tenant.client, 'dev', 60, REPORTING), ...history(tenant.client)]);
  // A tenant whose reports were written before the latest-reports index: no index keys, and its account unmarked.
  const bare = fleet(unindexed.client, 'old', 8, 5).map((item) => {
    const { gsi1pk: _pk, gsi1sk: _sk, ...rest } = item;
    return item.sk === 'TELEMETRY#LATEST' ? (rest as TableItem) : item;
  });
  await write(unindexed.deps, bare);
  await unindexed.deps.table.update(keys.account.item(unindexed.client), { remove: ['telemetry_indexed_at'] });
}, 120_000);

afterAll(async () => {
  await tenant?.close();
  await unindexed?.close();
});

/** A page of PAGE of each list, its query as the contract parses it (every default applied). */
const page = { limit: String(PAGE) };
const queries = {
  telemetry: (query: Record<string, string> = page) => endpointOf(deviceEndpoints, 'admin.telemetry.list').query.parse(query),
  deviceActivities: endpointOf(auditEndpoints, 'admin.device-activities.list').query.parse(page),
  deviceUsers: endpointOf(deviceEndpoints, 'admin.users.list').query.parse(page),
  alerts: endpointOf(alertEndpoints, 'admin.alerts.list').query.parse(page),
  recordings: endpointOf(payloadEndpoints, 'client.payloads.list').query.parse(page),
};

// DynamoDB Local on a shared machine: a call may take seconds.
describe('what a list page reads', { timeout: 60_000 }, () => {
  it('GET telemetry reads the reports on the latest-reports index, the same however many devices never reported', async () => {
    const list = () => measureCapacity(() => listLatestTelemetry(callerOf(tenant, 'telemetry:List'), queries.telemetry()));
    const before = await list();
    expect('data' in before.result && before.result.data.map((entry) => entry.device_reference)).toEqual(
      Array.from({ length: REPORTING }, (_, index) => `dev-${String(index).padStart(4, '0')}`),
    );
    // The account (is the tenant indexed?) and the reports: nothing of the fleet.
    expect(before.capacity.itemsRead).toBe(REPORTING + 1);

    await write(tenant.deps, fleet(tenant.client, 'silent', 400, 0));
    const after = await list();
    expect(after.result).toEqual(before.result);
    expect(after.capacity.itemsRead).toBe(before.capacity.itemsRead);
    expect(after.capacity.readUnits).toBe(before.capacity.readUnits);

    // A second page goes on from the first's cursor.
    const first = await listLatestTelemetry(callerOf(tenant, 'telemetry:List'), queries.telemetry({ limit: '15' }));
    expect('last_key' in first && first.last_key).toBeTruthy();
    const second = await listLatestTelemetry(callerOf(tenant, 'telemetry:List'), queries.telemetry({ limit: '15', last_key: (first as { last_key: string }).last_key }));
    expect('data' in second && second.data.map((entry) => entry.device_reference)).toEqual(['dev-0015', 'dev-0016', 'dev-0017', 'dev-0018', 'dev-0019']);
    expect(await listLatestTelemetry(callerOf(tenant, 'telemetry:List'), queries.telemetry({ result_type: 'total' }))).toEqual({ count: REPORTING });
  });

  it('a tenant not yet indexed lists every report as before; the backfill puts them on the index and marks the tenant', async () => {
    const list = () => listLatestTelemetry(callerOf(unindexed, 'telemetry:List'), queries.telemetry());
    const expected = ['old-0000', 'old-0001', 'old-0002', 'old-0003', 'old-0004'];
    const before = await list();
    expect('data' in before && before.data.map((entry) => entry.device_reference)).toEqual(expected);

    const run = await telemetryIndexBackfillJob({ ...unindexed.deps }, { client: unindexed.client });
    expect(run).toMatchObject({ outcome: 'done', indexed: 5, tenants: 1 });
    const account = await unindexed.deps.table.get(keys.account.item(unindexed.client), { consistent: true });
    expect(readAccount(account as TableItem).telemetry_indexed_at).toBeDefined();
    const after = await measureCapacity(list);
    expect('data' in after.result && after.result.data.map((entry) => entry.device_reference)).toEqual(expected);
    expect(after.capacity.itemsRead).toBe(expected.length + 1);
    // Run again, it writes nothing.
    expect(await telemetryIndexBackfillJob({ ...unindexed.deps }, { client: unindexed.client })).toMatchObject({ outcome: 'done', indexed: 0 });
  });

  it('a page of 50 of a filtered list reads 51 items when its filter leaves nothing out: device activities, device users, alerts, recordings', async () => {
    const lists = {
      deviceActivities: () => listDeviceActivities(callerOf(tenant, 'deviceActivities:List'), queries.deviceActivities),
      deviceUsers: () => listDeviceUsers(callerOf(tenant, 'deviceUsers:List'), queries.deviceUsers),
      alerts: () => listAlerts({ deps: tenant.deps, tenant: tenant.client, alerts: alertAccessFromContext('page-reader', access) }, queries.alerts),
      recordings: () => listPayloads(callerOf(tenant, 'payloads:List'), queries.recordings),
    };
    const figures: Record<string, { items: number; read_units: number }> = {};
    for (const [name, list] of Object.entries(lists)) {
      const { result, capacity } = await measureCapacity(list as () => Promise<unknown>);
      figures[name] = { items: capacity.itemsRead, read_units: capacity.readUnits };
      expect((result as { data: unknown[] }).data, name).toHaveLength(PAGE);
      expect((result as { last_key?: string }).last_key, name).toBeDefined();
      expect(capacity.itemsRead, name).toBe(PAGE + 1);
    }
    console.info('a page of 50 on DynamoDB Local', JSON.stringify(figures));
  });
});
