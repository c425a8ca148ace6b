import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { loadDevice } from '../../scripts/device/device-state.ts';
import { fleetPlacements, seedDemoFleet } from '../../scripts/local/seed/fleet.ts';
import { DEMO_ACCESS } from '../../scripts/local/seed/groups.ts';
import { api, bearer, stack } from './support/stack.ts';
import { signIn } from './support/sign-in.ts';

/**
 * The demo media `npm start` seeds on first start (scripts/local/seed/fleet.ts), run here against the stack of the
 * global setup: the fleet's phones record through the device simulator and the real payload pipeline (upload URL, PUT
 * to s3rver, registration, the S3 event, processing), never written to the table. Then the end states: every phone's
 * call, interview, photo, video and SMS thread Processed, the EICAR upload Quarantined and the tampered one Failed,
 * each with its alert claimed, and the portal's play link of a call answering the WAV bytes.
 *
 * The seed writes into tenant `demo` as `npm start` does (its users, phones and payloads have their own references).
 */
const PHONES = ['demo-alice', 'demo-bram', 'demo-chloe', 'demo-dev', 'demo-erin'];
const devicesDir = mkdtempSync(join(tmpdir(), 'verity-demo-media-'));
let deps: Dependencies;
let seeded: boolean;

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  seeded = await seedDemoFleet(stack(), devicesDir);
}, 300_000);

afterAll(() => rmSync(devicesDir, { recursive: true, force: true }));

/** Every payload one phone recorded (the device's list: one Query). */
async function payloadsOf(name: string): Promise<TableItem[]> {
  const phone = loadDevice(devicesDir, name);
  expect(phone, name).toBeDefined();
  const items: TableItem[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...keys.payload.listByDevice('demo', String(phone?.device_reference)), ...(startKey ? { startKey } : {}) });
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return items;
}

const tally = (items: TableItem[]) => {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const label = `${String(item.payload_type)}:${String(item.payload_state)}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

describe('demo media seed', () => {
  it('seeds once: a second start finds the markers and records nothing more', async () => {
    expect(seeded).toBe(true);
    const before = (await payloadsOf('demo-alice')).length;
    expect(await seedDemoFleet(stack(), devicesDir)).toBe(false);
    expect((await payloadsOf('demo-alice')).length).toBe(before);
  });

  it('ends with every phone\'s media Processed, one EICAR upload Quarantined and one tampered upload Failed', async () => {
    const processed = { 'Call:Processed': 1, 'Interview:Processed': 1, 'Photo:Processed': 1, 'Video:Processed': 1, 'SMS:Processed': 3, 'MMS:Processed': 1 };
    const [first, ...others] = await Promise.all(PHONES.map(payloadsOf));
    expect(tally(first ?? [])).toEqual({ ...processed, 'BlockedCall:Processed': 1, 'AbortedCall:Processed': 1, 'Interview:Quarantined': 1, 'Call:Failed': 1 });
    for (const items of others) expect(tally(items)).toEqual(processed);

    const all = [first ?? [], ...others].flat();
    for (const item of all) {
      // Every final state's effect (metrics or the PayloadAlert) was claimed, and no sweep marker is left behind.
      expect(item.metrics_pending ?? item.alert_pending).toBeUndefined();
      expect(await deps.table.get(keys.payload.sweepKey('demo', String(item.payload_reference)))).toBeUndefined();
    }
    const quarantined = all.find((item) => item.payload_state === 'Quarantined');
    const failed = all.find((item) => item.payload_state === 'Failed');
    expect(quarantined).toMatchObject({ scan_signature: 'EICAR-Test-File' });
    expect(String(failed?.failure_reason)).toContain('Authentication tag does not verify');
    // Neither released any plaintext.
    for (const item of [quarantined, failed]) expect(await deps.blobs.head('processed', payloadObjectKey('demo', String(item?.payload_reference)))).toBeUndefined();

    // Each phone's four messages (3 SMS, an MMS) share one thread.
    const threads = new Set(all.filter((item) => item.payload_type === 'SMS' || item.payload_type === 'MMS').map((item) => item.thread_id));
    expect(threads.size).toBe(PHONES.length);
  });

  it('gives the demo tenant its tag definitions and groups, and places every fleet user in a group, through the API', async () => {
    const { id_token } = await signIn('admin@demo.test');
    const demo = DEMO_ACCESS.find((tenant) => tenant.client === 'demo');
    const groups = (await (await api('/api/v1/demo/groups?limit=100', { headers: bearer(id_token) })).json()) as {
      data: Array<{ group_reference: string; tags?: Array<{ tag_key: string; tag_value: string }> }>;
    };
    for (const seededGroup of demo?.groups ?? []) {
      const found = groups.data.find((candidate) => candidate.group_reference === seededGroup.group_reference);
      expect(found, seededGroup.group_reference).toBeDefined();
      expect(found?.tags?.map((tag) => tag.tag_key).sort()).toEqual(seededGroup.request.tags.map((tag) => tag.tag_key).sort());
    }
    const tags = (await (await api('/api/v1/demo/tags?limit=100', { headers: bearer(id_token) })).json()) as { data: Array<{ tag_key: string }> };
    expect(tags.data.map((tag) => tag.tag_key)).toEqual(expect.arrayContaining(['region', 'desk', 'risk']));
    for (const placement of fleetPlacements()) {
      const user = (await (await api(`/api/v1/demo/users/${placement.device_user_reference}`, { headers: bearer(id_token) })).json()) as { group?: string };
      expect(user.group, placement.device_user_reference).toBe(placement.group);
    }
    // The phones signed in again once their users were placed: each group counts its users' phones, and every
    // recording carries its phone's group.
    const phonesPerGroup = new Map<string, number>();
    for (const placement of fleetPlacements()) phonesPerGroup.set(placement.group, (phonesPerGroup.get(placement.group) ?? 0) + 1);
    for (const [group, phones] of phonesPerGroup) {
      const found = groups.data.find((candidate) => candidate.group_reference === group) as { stats?: { actual_devices?: number } } | undefined;
      expect(found?.stats?.actual_devices, group).toBe(phones);
    }
    for (const [index, name] of PHONES.entries()) {
      const group = fleetPlacements()[index]?.group;
      for (const item of await payloadsOf(name)) expect(item.group, `${name} ${String(item.payload_type)}`).toBe(group);
    }
  });

  it('a seeded call plays from the portal: the WAV by range requests, its waveform peaks before any audio', async () => {
    const call = (await payloadsOf('demo-bram')).find((item) => item.payload_type === 'Call');
    expect(call?.waveform_peaks).toBe(true);
    const { id_token } = await signIn('admin@demo.test');
    // The waveform comes first, from its own endpoint (derived data: no play is recorded); the play link on Play.
    const waveform = await api(`/api/v1/demo/payloads/${String(call?.payload_reference)}/waveform`, { headers: bearer(id_token) });
    expect(waveform.status).toBe(200);
    const { peaks_url } = (await waveform.json()) as { peaks_url: string };
    const link = await api(`/api/v1/demo/payloads/${String(call?.payload_reference)}/data?action=play`, { headers: bearer(id_token) });
    expect(link.status).toBe(200);
    const { s3_url } = (await link.json()) as { s3_url: string };
    // The waveform: a few KB of peaks, however long the call.
    const peaks = (await (await fetch(String(peaks_url))).json()) as { sample_rate: number; duration: number; peaks: number[] };
    expect(peaks.sample_rate).toBe(8000);
    expect(peaks.duration).toBeGreaterThan(5);
    expect(Math.max(...peaks.peaks)).toBeGreaterThan(100);
    // A media element asks for ranges: the local S3 answers 206 with exactly the bytes asked.
    const ranged = await fetch(s3_url, { headers: { Range: 'bytes=0-43' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toMatch(/^bytes 0-43\/\d+$/);
    const head = Buffer.from(await ranged.arrayBuffer());
    expect(head.length).toBe(44);
    expect(head.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(head.subarray(8, 12).toString('latin1')).toBe('WAVE');
    // A download gets the recording only; a blocked call has nothing to play (NoS3Url).
    const download = (await (await api(`/api/v1/demo/payloads/${String(call?.payload_reference)}/data?action=download`, { headers: bearer(id_token) })).json()) as object;
    expect(Object.keys(download)).toEqual(['s3_url']);
    const blocked = (await payloadsOf('demo-alice')).find((item) => item.payload_type === 'BlockedCall');
    const refused = await api(`/api/v1/demo/payloads/${String(blocked?.payload_reference)}/data?action=play`, { headers: bearer(id_token) });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^NoS3Url/);

    const photo = (await payloadsOf('demo-chloe')).find((item) => item.payload_type === 'Photo');
    const photoLink = await api(`/api/v1/demo/payloads/${String(photo?.payload_reference)}/data?action=download`, { headers: bearer(id_token) });
    const picture = Buffer.from(await (await fetch(((await photoLink.json()) as { s3_url: string }).s3_url)).arrayBuffer());
    expect([...picture.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(picture.includes(Buffer.from('Exif', 'latin1'))).toBe(true);
    const video = (await payloadsOf('demo-chloe')).find((item) => item.payload_type === 'Video');
    expect(video?.waveform_peaks).toBeUndefined();
  });
});
