import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { readGroup } from '#core/store/entities/group.ts';
import { readLicencesItem } from '#core/store/entities/licences.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import type { ItemKey, TableItem } from '#core/ports/table-store.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import { MIGRATION_ERROR_TYPES, MIGRATION_SUCCESS_TYPES, MIGRATION_WARNING_TYPES } from '#shared/constants/account.ts';
import { openPayloadMeta } from '../../lambdas/device-crypto/payload-crypto.ts';
import { limitAttribute, readLicences } from '../../lambdas/licences/licence-usage.ts';
import { readDashboard } from '../../lambdas/metrics/dashboard-counters.ts';
import { readExportRows } from '../../lambdas/migrations/format/index.ts';
import { createRowImporter, legacyPayloadReference, resultOfParseFailure, type RowResult } from '../../lambdas/migrations/import/index.ts';
import { craftedExport, sampleExportLines } from '../../scripts/migration/sample-rows.ts';
import { platformFleet } from './support/platform-fleet.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * What each row of a legacy export does, on the local stand-ins (DynamoDB Local, s3rver, the EICAR scanner): the
 * format's reader feeding the row importer, as the migration job does, in tenants of this run.
 */
let tenant: RunTenant;
let sample: RunTenant;
let other: RunTenant;

const OFF = { disable_onboarding: false, disable_offboarding: false, disable_payloads: false };
const ON = { disable_onboarding: true, disable_offboarding: true, disable_payloads: true };

async function* chunksOf(lines: Iterable<string>): AsyncGenerator<Uint8Array> {
  // Odd-sized chunks, so rows cross chunk boundaries as they do from S3.
  let pending = '';
  for (const line of lines) {
    pending += line;
    while (pending.length > 4093) {
      yield Buffer.from(pending.slice(0, 4093), 'utf8');
      pending = pending.slice(4093);
    }
  }
  if (pending.length > 0) yield Buffer.from(pending, 'utf8');
}

async function importLines(
  into: RunTenant,
  lines: Iterable<string>,
  settings: typeof OFF,
  options: { maxMediaBytes?: number; migrationReference?: string } = {},
): Promise<RowResult[]> {
  const migrationReference = options.migrationReference ?? `test-${Date.now()}`;
  const importer = createRowImporter(into.deps, { client: into.client, migrationReference, settings, now: new Date() });
  const results: RowResult[] = [];
  for await (const parsed of readExportRows(chunksOf(lines), options.maxMediaBytes === undefined ? {} : { maxMediaBytes: options.maxMediaBytes })) {
    const answer = parsed.ok ? await importer.importRow(parsed.value, parsed.row) : [resultOfParseFailure(parsed)];
    expect(answer).toHaveLength(1);
    results.push(...answer);
  }
  await importer.finish();
  return results;
}

type Json = Record<string, unknown>;

/** The stored item at `key`: present, or the test fails here. */
async function storedItem(of: RunTenant, key: ItemKey): Promise<TableItem> {
  const item = await of.deps.table.get(key);
  if (item === undefined) throw new Error(`No item ${key.pk} ${key.sk}`);
  return item;
}

/**
 * Every item a migration may write or count in a tenant, read raw from DynamoDB Local: the dashboard counters and
 * their group shares, the licence item, groups (with their stats), device users, devices, payloads, payload metrics.
 */
async function snapshot(of: RunTenant): Promise<Json> {
  const { client, deps } = of;
  const list = (query: Parameters<typeof readAll>[1]) => readAll(deps.table, { ...query, consistent: false });
  return {
    dashboard: (await deps.table.get(keys.device.dashboardCounters(client))) ?? null,
    shares: await list(keys.device.listGroupDashboardCounters(client)),
    licences: (await deps.table.get(keys.licence.item(client))) ?? null,
    groups: await list(keys.group.list(client)),
    users: await list(keys.deviceUser.list(client)),
    devices: await list(keys.device.list(client)),
    payloads: await list(keys.payload.list(client)),
    metrics: await list(keys.metrics.list(client, 'Summary')),
    totals: (await deps.table.get(keys.metrics.totals(client))) ?? null,
  };
}

beforeAll(async () => {
  tenant = await createRunTenant('migrows');
  sample = await createRunTenant('migsample');
  other = await createRunTenant('migother');
  await platformFleet(tenant);
});
afterAll(async () => {
  await Promise.all([tenant, sample, other].map((run) => run.close()));
});

describe('the crafted export', () => {
  let first: RowResult[];
  let second: RowResult[];
  let otherBefore: Json;
  const crafted = craftedExport();

  beforeAll(async () => {
    otherBefore = await snapshot(other);
    first = await importLines(tenant, crafted.map((entry) => entry.line), OFF);
    second = await importLines(tenant, crafted.map((entry) => entry.line), ON);
  }, 120_000);

  it('gives each row its one expected result, by row number, with every switch off and then on', () => {
    const expected = (run: 'first' | 'second') => crafted.slice(1).map((entry, index) => [index + 2, entry[run]]);
    expect(first.map((result) => [result.row, result.type])).toEqual(expected('first'));
    expect(second.map((result) => [result.row, result.type])).toEqual(expected('second'));
    for (const result of [...first, ...second]) {
      const kind = (MIGRATION_ERROR_TYPES as readonly string[]).includes(result.type) ? 'error' : (MIGRATION_WARNING_TYPES as readonly string[]).includes(result.type) ? 'warning' : 'success';
      expect(result.kind, `row ${result.row}`).toBe(kind);
    }
    // Only successes that wrote something count as new or updated; the second run writes nothing.
    expect(second.filter((result) => result.isNewOrUpdated)).toEqual([]);
    expect(first.filter((result) => result.isNewOrUpdated).map((result) => result.type)).not.toContain('NoChangeToUser');
  });

  it('reaches every result type of the catalogue (with a file that is not an export)', async () => {
    const unknown = await importLines(tenant, ['device_reference,phone\n', 'abc,+447700900000\n'], OFF);
    expect(unknown).toMatchObject([{ row: 1, kind: 'error', type: 'UnknownFile' }]);
    const reached = new Set([...first, ...second, ...unknown].map((result) => result.type));
    expect([...reached].sort()).toEqual([...MIGRATION_ERROR_TYPES, ...MIGRATION_WARNING_TYPES, ...MIGRATION_SUCCESS_TYPES].sort());
  });

  it('stores a migrated call as a processed one: legacy fields, original times, sealed meta, media under its checksum', async () => {
    const { client, deps } = tenant;
    const reference = legacyPayloadReference(client, 'crafted-call');
    const stored = readPayload(await storedItem(tenant, keys.payload.key(client, reference)));
    expect(stored).toMatchObject({
      payload_state: 'Processed',
      payload_type: 'Call',
      is_legacy: true,
      legacy_payload_reference: 'crafted-call',
      legacy_processed_time: '2024-03-01T10:06:00.000Z',
      uploaded_at: '2024-03-01T10:05:00.000Z',
      payload_time: '2024-03-01T10:00:00.000Z',
      device_reference: 'crafted-device',
      device_user_reference: 'crafted-user',
      group: 'crafted-sales',
      second_party_numbers: '+447700900123',
      s3_path: payloadObjectKey(client, reference),
      waveform_peaks: true,
    });
    expect(stored.metrics_pending).toBeUndefined();
    // Retention counts a migrated recording from its original time: its due marker carries the recorded time.
    const marker = await deps.table.get(keys.retentionDue.key(client, keys.payload.key(client, reference), 'payload_time'), { consistent: true });
    expect(marker).toMatchObject({ record_type: 'PayloadData', payload_type: 'Call', stage: 'LIVE', base_time: '2024-03-01T10:00:00.000Z' });
    const object = await deps.blobs.get('processed', payloadObjectKey(client, reference));
    const chunks: Buffer[] = [];
    for await (const chunk of object?.body ?? []) chunks.push(chunk as Buffer);
    expect(createHash('sha256').update(Buffer.concat(chunks)).digest('hex')).toBe(stored.checksum);

    // The sealed meta opens with the tenant's keys, as the payload detail opens it; the conference holds both legs' parties.
    expect(await openPayloadMeta(deps, client, stored)).toMatchObject({ payload_full_duration: 60, payload_time: '2024-03-01T10:00:00Z' });
    const conference = readPayload(await storedItem(tenant, keys.payload.key(client, legacyPayloadReference(client, 'crafted-conference'))));
    const conferenceMeta = (await openPayloadMeta(deps, client, conference)) as { second_parties: Array<{ phone_number: string }> };
    expect(conferenceMeta.second_parties.map((party) => party.phone_number)).toEqual(['+447700900201', '+447700900202']);
    expect(conference.second_party_numbers).toBe('+447700900201,+447700900202');
    const recorded = readPayload(await storedItem(tenant, keys.payload.key(client, legacyPayloadReference(client, 'crafted-sms'))));
    expect(recorded).toMatchObject({ payload_state: 'Recorded', is_legacy: true });
    expect(recorded.s3_path).toBeUndefined();
  });

  it('stores nothing of a recording the scanner flags or whose checksum does not match', async () => {
    const { client, deps } = tenant;
    for (const legacy of ['crafted-infected', 'crafted-tampered', 'crafted-lost', 'crafted-nobody', 'crafted-early']) {
      const reference = legacyPayloadReference(client, legacy);
      expect(await deps.table.get(keys.payload.key(client, reference)), legacy).toBeUndefined();
      expect(await deps.blobs.head('processed', payloadObjectKey(client, reference)), legacy).toBeUndefined();
    }
    expect(first.find((result) => result.reference === 'crafted-infected')?.message).toMatch(/malware scan found EICAR/);
  });

  it('moves the dashboard legacy counters, the group stats and the licence use, and lists the recordings', async () => {
    const { client, deps } = tenant;
    const dashboard = readDashboard(await deps.table.get(keys.device.dashboardCounters(client)));
    // crafted-device, crafted-orphan and crafted-late-device activated; crafted-retired deactivated.
    expect(dashboard.devices).toMatchObject({ legacyActivated: 3, legacyDeactivated: 1 });
    // crafted-user and crafted-flip-on onboarded; crafted-leaver and crafted-flip-off offboarded.
    expect(dashboard.users).toMatchObject({ legacyOnboarded: 2, legacyOffboarded: 2 });
    const group = readGroup(await storedItem(tenant, keys.group.item(client, 'crafted-sales')));
    expect(group.stats).toMatchObject({ device_users: 2, actual_devices: 2, services: { calls: { active_users: 2 } } });
    const licenceItem = await deps.table.get(keys.licence.item(client));
    const licences = readLicences(client, licenceItem === undefined ? undefined : readLicencesItem(licenceItem));
    // The two legacy users onboarded, and the user Verity manages (written without its licence: not counted).
    expect(licences.data.find((entry) => entry.service === 'calls')?.used).toBe(2);
    const payloads = (await readAll(deps.table, keys.payload.list(client))).map(readPayload);
    expect(payloads.map((payload) => payload.legacy_payload_reference).sort()).toEqual(['crafted-call', 'crafted-conference', 'crafted-photo', 'crafted-sms']);
    expect(payloads.every((payload) => payload.is_legacy === true && payload.group === 'crafted-sales')).toBe(true);
    // Counted once each, the Processed ones only (the SMS was never uploaded), whatever the two runs and the legs did.
    expect(payloads.every((payload) => payload.metrics_pending === undefined)).toBe(true);
    const summary = await storedItem(tenant, keys.metrics.item(client, 'Summary', 'all', 'crafted-device'));
    expect(summary).toMatchObject({ n_Call: 2, n_Photo: 1, first_occurrence: '2024-03-01T10:00:00.000Z', last_occurrence: '2024-03-03T12:00:00.000Z' });
    expect(summary.n_SMS).toBeUndefined();
    expect(await storedItem(tenant, keys.metrics.totals(client))).toMatchObject({ payloads: 3, n_Call: 2, n_Photo: 1 });
    expect(await readAll(deps.table, keys.payload.listByDevice(client, 'crafted-device'))).toHaveLength(4);
    expect(await readAll(deps.table, keys.payload.listByDeviceUser(client, 'crafted-user'))).toHaveLength(4);
    const users = (await readAll(deps.table, keys.deviceUser.listByGroup(client, 'crafted-sales'))).map(readDeviceUser);
    expect(users.filter((user) => user.is_legacy).map((user) => user.device_user_reference).sort()).toEqual(['crafted-flip-off', 'crafted-flip-on', 'crafted-leaver', 'crafted-user']);
    // The offboarded ones are retained records counted from their offboarding, due-indexed as they were written.
    const marked = (await readAll(deps.table, keys.retentionDue.list(client, { recordType: 'DeviceUserData', kind: 'at', stage: 'LIVE' }))).map((marker) => marker.reference);
    expect(marked.filter((reference) => String(reference).startsWith('crafted-')).sort()).toEqual(['crafted-flip-off', 'crafted-leaver']);
  });

  it("leaves another tenant's data untouched, and names the same legacy recording apart in each tenant", async () => {
    expect(await snapshot(other)).toEqual(otherBefore);
    expect(legacyPayloadReference(other.client, 'crafted-call')).not.toBe(legacyPayloadReference(tenant.client, 'crafted-call'));
    // Every key carries its tenant: the other tenant's reads find nothing of this one.
    expect(await other.deps.table.get(keys.payload.key(other.client, legacyPayloadReference(tenant.client, 'crafted-call')))).toBeUndefined();
  });
});

describe('a sample export imported again', () => {
  it('changes no count and answers NoChangeTo… or PayloadAlreadyLoaded for every row', async () => {
    const lines = [...sampleExportLines({ rows: 160, mediaBytes: 512 })];
    const first = await importLines(sample, lines, OFF);
    expect(first.filter((result) => result.kind !== 'success')).toEqual([]);
    expect(new Set(first.map((result) => result.type))).toEqual(
      new Set(['GroupAdded', 'UserCreatedOnboarded', 'UserCreatedOffboarded', 'DeviceCreatedActivated', 'DeviceCreatedDeactivated', 'PayloadCreated', 'RecordedPayloadCreated']),
    );
    const before = await snapshot(sample);
    const again = await importLines(sample, lines, OFF);
    expect(again.map((result) => result.row)).toEqual(first.map((result) => result.row));
    expect(new Set(again.map((result) => result.type))).toEqual(new Set(['NoChangeToGroup', 'NoChangeToUser', 'NoChangeToDevice', 'PayloadAlreadyLoaded']));
    expect(again.filter((result) => result.isNewOrUpdated)).toEqual([]);
    expect(await snapshot(sample)).toEqual(before);
  }, 120_000);
});

describe('limits and what Verity did since', () => {
  it('refuses a user past a licence limit with an Error naming the service, and leaves a disposed recording as Verity left it', async () => {
    const { client, deps } = sample;
    await deps.table.update(keys.licence.item(client), { set: { [limitAttribute('calls')]: 2 } });
    const header = [...sampleExportLines({ rows: 4 })][0] ?? '';
    const newcomer = `${JSON.stringify({ kind: 'device_user', device_user_reference: 'legacy-newcomer', group: 'legacy-group-0', services: ['calls', 'sms'], is_active: true })}\n`;
    const before = await snapshot(sample);
    const [refused] = await importLines(sample, [header, newcomer], OFF);
    expect(refused).toMatchObject({ row: 2, kind: 'error', type: 'Error', entity: 'DeviceUser', reference: 'legacy-newcomer', message: 'services.calls: Licence limit of 2 reached for calls' });
    expect(await snapshot(sample)).toEqual(before);

    // A recording of the sample, deleted on Verity since it was loaded, then imported again with other details.
    const line = [...sampleExportLines({ rows: 160, mediaBytes: 512 })].find((text) => text.includes('"legacy-rec-00000000"')) ?? '';
    const key = keys.payload.key(client, legacyPayloadReference(client, 'legacy-rec-00000000'));
    await deps.table.update(key, { set: { payload_state: 'Deleted' } });
    const deleted = await storedItem(sample, key);
    const changed = line.replace('"timezone":"Europe/London"', '"timezone":"Europe/Paris"');
    expect(changed).not.toBe(line);
    const [kept] = await importLines(sample, [header, changed], OFF);
    expect(kept).toMatchObject({ row: 2, kind: 'warning', type: 'PayloadAlreadyLoaded', message: 'Loaded before, now Deleted on Verity: left as it is' });
    expect(await storedItem(sample, key)).toEqual(deleted);
  });
});

describe('a migration continued by a new importer', () => {
  it('still tells a duplicate device reference from the same row read again', async () => {
    const header = [...sampleExportLines({ rows: 4 })][0] ?? '';
    const device = (imei: string) => `${JSON.stringify({ kind: 'device', device_reference: 'continued-device', imeis: [imei], is_deactivated: false })}\n`;
    const migrationReference = `continued-${Date.now()}`;
    expect(await importLines(sample, [header, device('356938035643809')], OFF, { migrationReference })).toMatchObject([{ type: 'DeviceCreatedActivated' }]);
    // Continuations: new importers of the same migration, as the job makes after a checkpoint. The same row read again
    // (a retry after a crash) changes nothing; another row with the reference is the duplicate it is.
    expect(await importLines(sample, [header, device('356938035643809')], OFF, { migrationReference })).toMatchObject([{ type: 'NoChangeToDevice' }]);
    expect(await importLines(sample, [header, device('490154203237518')], OFF, { migrationReference })).toMatchObject([{ type: 'DuplicateDeviceReference', message: expect.stringMatching(/\(imeis\)/) }]);
    // Another migration of the same file later is no duplicate: the row updates the legacy device.
    expect(await importLines(sample, [header, device('490154203237518')], OFF)).toMatchObject([{ type: 'DeviceCreatedActivated', isNewOrUpdated: true, message: 'Updated from the legacy platform: imeis' }]);
  });
});

describe('hostile rows', () => {
  it('each get an error result with its row number, never a crash, and write nothing', async () => {
    const before = await snapshot(other);
    const media = Buffer.alloc(3000, 7);
    const call = (extra: Json) =>
      `${JSON.stringify({
        kind: 'recording',
        legacy_payload_reference: 'hostile-1',
        payload_type: 'Call',
        legacy_state: 'Processed',
        device_reference: 'nowhere',
        meta: { payload_time: '2024-01-01T00:00:00Z', second_parties: [{ phone_number: '+447700900999', direction: 'I' }] },
        checksum: createHash('sha256').update(media).digest('hex'),
        media: { content_type: 'audio/wav', data: media.toString('base64') },
        ...extra,
      })}\n`;
    const lines = [
      `${JSON.stringify({ kind: 'verity-legacy-export', version: 1 })}\n`,
      '{"kind":"group",,}\n',
      `${JSON.stringify({ kind: 'firmware', group_reference: 'x' })}\n`,
      `${JSON.stringify({ kind: 'device_user', device_user_reference: 'u'.repeat(61), group: 'g'.repeat(256), services: ['calls'], is_active: true })}\n`,
      call({}),
      call({ checksum: 'f'.repeat(64), media: { content_type: 'audio/wav', data: Buffer.alloc(100, 1).toString('base64') } }),
      `${JSON.stringify({ kind: 'device', device_reference: 'dev\u0000', is_deactivated: false, model: 'm'.repeat(10_000) })}\n`,
      'null\n',
      '{"kind":"group","group_reference":"xy","__proto__":{"polluted":true}}\n',
      `${JSON.stringify({ kind: 'recording', legacy_payload_reference: 'x', payload_type: 'Call', legacy_state: 'Processed', device_reference: 'd', meta: [] })}\n`,
      // 1000 parties of 400-character names: every field within its bounds, the whole meta past what an item holds.
      call({ meta: { payload_time: '2024-01-01T00:00:00Z', second_parties: Array.from({ length: 1000 }, (_, n) => ({ phone_number: `+44${n}`, direction: 'CC', contact_name: 'n'.repeat(400) })) } }),
    ];
    const results = await importLines(other, lines, OFF, { maxMediaBytes: 2048 });
    expect(results.map((result) => [result.row, result.kind])).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((row) => [row, 'error']));
    const message = (row: number) => results.find((result) => result.row === row)?.message ?? '';
    expect(message(2)).toMatch(/^Not valid JSON/);
    expect(message(3)).toMatch(/^kind: Must be one of/);
    expect(message(4)).toMatch(/device_user_reference: .*; group: /);
    expect(message(5)).toBe('media.data: Larger than the 2 KiB of media a row may carry');
    expect(message(6)).toMatch(/^checksum: Does not match the media/);
    expect(message(7)).toMatch(/model: Must be/);
    expect(message(8)).toBe('Must be a JSON object');
    // An unknown field is refused whatever its name (JSON.parse makes __proto__ an own property, never a prototype).
    expect(message(9)).toMatch(/__proto__: This field is not allowed/);
    expect(message(10)).toMatch(/^meta: /);
    expect(message(11)).toMatch(/meta: Larger than the 256 KiB/);
    expect(({} as Json).polluted).toBeUndefined();
    expect(await snapshot(other)).toEqual(before);
  });
});
