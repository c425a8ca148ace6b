import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { deviceToItem } from '#core/store/entities/device.ts';
import { deviceUserToItem } from '#core/store/entities/device-user.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { listPayloads } from '../../lambdas/payloads/payload-lists.ts';
import { pageWithNames } from '../../lambdas/payloads/payload-names.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * What naming a page of recordings costs (`GET payloads`: device_user_name, device_model, device_phone_number) on
 * DynamoDB Local: ONE BatchGet of the page's distinct device users and devices, each a half unit however small,
 * because names are read where they live, never copied onto a recording (core/store/display-names.ts says why). So the
 * cost follows the people and phones on the page, never the recordings: 50 recordings of 5 phones name 10 items, 50
 * of 50 phones name 100. The capacity bench's `least` counts the recordings only (docs/architecture.md has the figures).
 */
let tenant: RunTenant;

const PAGE = 50;
const NOW = Date.now();
const query = endpointOf(payloadEndpoints, 'client.payloads.list').query.parse({ limit: String(PAGE) });

async function write(deps: Dependencies, items: readonly TableItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 100) {
    await deps.table.transactWrite(items.slice(start, start + 100).map((item) => ({ kind: 'put' as const, item })));
  }
}

/** `count` phones `<prefix>-<n>`, each held by its own named device user. */
function fleet(client: string, prefix: string, count: number): TableItem[] {
  const time = new Date(NOW).toISOString();
  return Array.from({ length: count }, (_, index) => [
    deviceToItem(client, {
      client,
      device_reference: `${prefix}-${index}`,
      device_user_reference: `${prefix}-user-${index}`,
      model: 'Pixel 8',
      services: ['calls'],
      imeis: [],
      is_deactivated: false,
      is_legacy: false,
      phone_numbers: [{ phone_number: `+4477009${String(index).padStart(5, '0')}`, slot_index: 0 }],
      updated_at: time,
      updated_by: 'test',
    }),
    deviceUserToItem(client, { client, device_user_reference: `${prefix}-user-${index}`, services: ['calls'], expected_device_count: 1, first_name: 'Named', surname: `${prefix} ${index}`, is_active: true, is_legacy: false, updated_at: time, updated_by: 'test' }),
  ]).flat();
}

/** `count` recordings, newest at `newestMinutesAgo`, round-robin over `phones` phones of the fleet `prefix`. */
function recordings(client: string, prefix: string, phones: number, count: number, newestMinutesAgo: number): TableItem[] {
  return Array.from({ length: count }, (_, index) => {
    const time = new Date(NOW - (newestMinutesAgo + index) * 60_000).toISOString();
    return payloadToItem(client, {
      client,
      payload_reference: ulid(Date.parse(time)),
      payload_type: 'Call',
      payload_state: 'Processed',
      payload_time: time,
      device_reference: `${prefix}-${index % phones}`,
      device_user_reference: `${prefix}-user-${index % phones}`,
      checksum: 'ab'.repeat(32),
      processed_at: time,
    });
  });
}

/** The list's page and its naming, measured apart. */
async function namedPage() {
  const caller = adminCaller(tenant.deps, tenant.client, 'payloads:List');
  const listed = await measureCapacity(() => listPayloads(caller, query));
  const named = await measureCapacity(() => pageWithNames(tenant.deps, tenant.client, listed.result));
  return { list: listed.capacity, naming: named.capacity, page: named.result as { data: Array<Record<string, unknown>> } };
}

beforeAll(async () => {
  tenant = await createRunTenant('namecap');
  await write(tenant.deps, [...fleet(tenant.client, 'many', PAGE), ...fleet(tenant.client, 'few', 5), ...recordings(tenant.client, 'many', PAGE, 2 * PAGE, 1000)]);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('what naming a page of recordings reads', { timeout: 60_000 }, () => {
  it('one BatchGet of the page\'s distinct device users and devices: 100 items for 50 phones, 10 for 5, whatever the recordings', async () => {
    const spread = await namedPage();
    expect(spread.page.data).toHaveLength(PAGE);
    expect(spread.page.data[0]).toMatchObject({ device_user_name: 'Named many 0', device_model: 'Pixel 8', device_phone_number: '+447700900000' });
    expect(spread.list.itemsRead).toBe(PAGE + 1);
    expect(spread.naming).toMatchObject({ itemsRead: 2 * PAGE, calls: 1, readUnits: 0.5 * 2 * PAGE });

    // Newer recordings, all from five phones: the page names ten items.
    await write(tenant.deps, recordings(tenant.client, 'few', 5, PAGE, 0));
    const few = await namedPage();
    expect(new Set(few.page.data.map((payload) => payload.device_reference)).size).toBe(5);
    expect(few.page.data.every((payload) => typeof payload.device_user_name === 'string' && (payload.device_user_name as string).startsWith('Named few'))).toBe(true);
    expect(few.naming).toMatchObject({ itemsRead: 10, calls: 1, readUnits: 5 });
    console.info('naming a page of 50 recordings on DynamoDB Local', JSON.stringify({ list: spread.list.readUnits, naming_50_phones: spread.naming.readUnits, naming_5_phones: few.naming.readUnits }));
  });
});
