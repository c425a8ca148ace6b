import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { inParallel } from '#core/in-parallel.ts';
import { keys } from '#core/store/keys.ts';
import { deviceKeysOf } from '../../../lambdas/device-crypto/device-keys.ts';
import { completenessSweepJob } from '../../../lambdas/completeness/public.ts';
import { loadDevice, saveDevice, type DeviceState } from '../../device/device-state.ts';
import { reportLedger } from '../../device/ledger.ts';
import { record, uploadHeld, type RecordOptions, type RecordResult } from '../../device/recorder.ts';
import { authenticate, type Simulator } from '../../device/simulator.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo's capture completeness (docs/completeness.md), seeded once (marker item) after the demo fleet, through the
 * real paths only: the phones' recordings through the payload pipeline (its processing matches them to ledger
 * entries), their ledgers through `POST /device/v1/ledger` (sealed, as the device simulator sends them), and the
 * `completeness-sweep` job for what is past its grace period. No count or outcome is written by the seed.
 *
 * THE PHONE WITH GAPS: `demo-chloe`, Chloe Carter (device user `du-chloe`, group `manchester-fx`, number
 * 07700900103, a Galaxy XCover7). Its ledger holds 12 calls and 6 messages (5 SMS, 1 MMS), of which:
 * - 2 calls `Missing`: an outgoing call to +447700900311 46 hours before the seed and an incoming call from
 *   +447700900317 30 hours before (the phone saw them; no recording was ever uploaded: `record --drop`);
 * - 1 call `Short`: an outgoing call to +447700900319 20 hours before, whose recording stopped 45 s before the call
 *   ended (`record --short 45`: a recording of about 5 s for a call of about 50 s);
 * - 2 calls `Captured late`: an outgoing call to +447700900315 50 hours before, whose recording the phone held back
 *   (`record --late`) until the sweep had marked it `Missing` (then `upload-held`); and the demo fleet's call 32 hours
 *   before (scripts/local/seed/fleet.ts), uploaded by the fleet seed, so more than the 24 h grace after the call;
 * - 13 `Captured`: 7 calls of the last 24 hours and the 6 messages (the fleet's SMS thread of 3 SMS and an MMS 5 hours
 *   before, and 2 SMS of the seed).
 * Everything older than the grace period is a gap or late, because a seed uploads now what it dates in the past; the
 * days are the UTC days of those times (two or three, by the hour the seed runs). Its gaps raise the device's `Scoped`
 * completeness alerts, one per UTC day with a gap. The tenant's other fleet phones report ledgers holding every call
 * and message they recorded (the fleet's media and the supervision seed's messages): `Captured`, except each fleet
 * call of 30 to 34 hours before, `Captured late` as above, and demo-alice's tampered call (its upload fails
 * processing), `Pending` for its first day and `Missing` after: a recording that failed its integrity check captured
 * nothing. (A data folder whose fleet was seeded before phones kept a ledger has none of the fleet's media in it:
 * there demo-chloe's ledger is the seed's own 11 calls and 2 SMS, with 1 `Captured late`, and the other phones report
 * empty ledgers.)
 */
export const COMPLETENESS_SEED_VERSION = 'v1';
const CLIENT = 'demo';
/** Uploads of the gaps phone in flight at once (the seed runs in `npm start` and the browser tests' setup). */
const UPLOADS_AT_ONCE = 3;
const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_COMPLETENESS_${COMPLETENESS_SEED_VERSION}`);

/** The fleet phone whose ledger has the gaps (scripts/local/seed/fleet.ts names it). */
export const GAPS_PHONE = 'demo-chloe';
/** The fleet phones that report their ledgers (the fleet's users' phones). */
export const LEDGER_PHONES = ['demo-alice', 'demo-bram', 'demo-chloe', 'demo-dev', 'demo-erin'] as const;

export type DemoGap = 'drop' | 'late' | { shortSeconds: number };

/** One call or message the gaps phone makes: when, which way, with whom, and the gap in its capture, if any. */
export interface DemoLedgerEvent {
  type: 'Call' | 'SMS';
  hoursAgo: number;
  direction: 'I' | 'O';
  otherNumber: string;
  /** An SMS's text. */
  text?: string;
  gap?: DemoGap;
}

/** What the gaps phone does on top of the fleet's media (its call 32 h before and its SMS thread 5 h before). */
export const DEMO_GAPS_EVENTS: readonly DemoLedgerEvent[] = [
  { type: 'Call', hoursAgo: 50, direction: 'O', otherNumber: '+447700900315', gap: 'late' },
  { type: 'Call', hoursAgo: 46, direction: 'O', otherNumber: '+447700900311', gap: 'drop' },
  { type: 'Call', hoursAgo: 30, direction: 'I', otherNumber: '+447700900317', gap: 'drop' },
  { type: 'Call', hoursAgo: 22, direction: 'O', otherNumber: '+447700900310' },
  { type: 'Call', hoursAgo: 20, direction: 'O', otherNumber: '+447700900319', gap: { shortSeconds: 45 } },
  { type: 'SMS', hoursAgo: 18, direction: 'O', otherNumber: '+447700900310', text: 'Calling you back about the EUR/GBP forward in five minutes.' },
  { type: 'Call', hoursAgo: 16, direction: 'I', otherNumber: '+447700900312' },
  { type: 'Call', hoursAgo: 14, direction: 'O', otherNumber: '+447700900313' },
  { type: 'Call', hoursAgo: 12, direction: 'I', otherNumber: '+447700900314' },
  { type: 'Call', hoursAgo: 9, direction: 'O', otherNumber: '+447700900316' },
  { type: 'SMS', hoursAgo: 7, direction: 'I', otherNumber: '+447700900316', text: 'Thanks, confirmed at 1.1642 for value Friday.' },
  { type: 'Call', hoursAgo: 6, direction: 'O', otherNumber: '+447700900318' },
  { type: 'Call', hoursAgo: 2, direction: 'I', otherNumber: '+447700900312' },
];

/** The gaps phone's ledger by outcome once the seed is done (its own events and the fleet's media of that phone). */
export const DEMO_GAPS_OUTCOMES = { Captured: 13, 'Captured late': 2, Short: 1, Missing: 2 } as const;

export interface CompletenessSeedTarget {
  client: string;
  sim: Simulator;
  /** The stack's store, for the sweep job the seed runs as its schedule would. */
  deps: Pick<Dependencies, 'table' | 'clock' | 'jobs'>;
  /** The phones that report a ledger, by name; GAPS_PHONE among them. */
  phones: ReadonlyMap<string, DeviceState>;
  /** The seed's "now" (ms): events are placed before it. */
  now: number;
}

export interface CompletenessSeedResult {
  /** The gaps phone's device reference. */
  gapsDevice: string;
  /** Entries each phone reported, by name. */
  reported: Record<string, number>;
}

function optionsOf(event: DemoLedgerEvent, now: number): RecordOptions {
  const gap = event.gap;
  return {
    at: new Date(now - event.hoursAgo * 3_600_000),
    otherNumber: event.otherNumber,
    ...(event.type === 'SMS' ? { text: event.text ?? '', direction: event.direction } : { direction: event.direction }),
    ...(gap === 'drop' ? { drop: true } : gap === 'late' ? { late: true } : gap === undefined ? {} : { shortSeconds: gap.shortSeconds }),
  };
}

/** Fails the seed on a refused or unsettled upload, naming it; a gap the phone was told to make is what it meant. */
function mustSettle(phone: DeviceState, label: string, results: readonly RecordResult[]): void {
  for (const result of results) {
    if (['processed', 'dropped', 'held'].includes(result.state)) continue;
    const why = result.refused === undefined ? result.state : `${result.refused.status} ${JSON.stringify(result.refused.body)}`;
    throw new Error(`${label} on ${phone.name} ended ${why}`);
  }
}

async function mustReport(target: CompletenessSeedTarget, phone: DeviceState): Promise<number> {
  const run = await reportLedger(target.sim, phone, new Date(target.now));
  const refused = run.results.find((result) => !result.ok);
  if (refused !== undefined) throw new Error(`ledger of ${phone.name} answered ${refused.status}: ${JSON.stringify(refused.body)}`);
  return run.reported;
}

/**
 * The completeness seed proper: the gaps phone's calls and messages (each noted in its ledger; recorded, dropped,
 * shortened or held back), every phone's ledger reported (matching what processing already holds), the sweep job (the
 * dropped calls and the held one are past their grace period: `Missing`), then the held recording uploaded (its
 * entry turns `Captured late`) and the ledger reported once more (nothing new: the phone is alive). The phones' states
 * move with each call: the caller saves them.
 */
export async function seedCompleteness(target: CompletenessSeedTarget): Promise<CompletenessSeedResult> {
  const gaps = target.phones.get(GAPS_PHONE);
  if (gaps === undefined) throw new Error(`No phone ${GAPS_PHONE} to seed the completeness gaps on`);
  // A few uploads at a time: the phone notes each in its ledger as it starts (ids in the events' order). It signs in
  // first, so the uploads under way share one fresh token rather than each signing in again.
  const signedIn = await authenticate(target.sim, gaps);
  if (!signedIn.ok) throw new Error(`authenticate ${gaps.name} answered ${signedIn.status}: ${JSON.stringify(signedIn.body)}`);
  await inParallel(DEMO_GAPS_EVENTS, UPLOADS_AT_ONCE, async (event) => {
    mustSettle(gaps, `${event.type} ${event.hoursAgo} h ago`, await record(target.sim, gaps, event.type, optionsOf(event, target.now)));
  });
  const reported: Record<string, number> = {};
  await Promise.all([...target.phones].map(async ([name, phone]) => (reported[name] = await mustReport(target, phone))));
  await completenessSweepJob(target.deps, { client: target.client });
  mustSettle(gaps, 'held recordings', await uploadHeld(target.sim, gaps));
  await mustReport(target, gaps);
  return { gapsDevice: gaps.device_reference, reported };
}

/**
 * Seeds the demo completeness of tenant `demo` once (marker item) with the demo fleet's phones from `devicesDir`
 * (seedDemoFleet first); answers what it did, or undefined when it had run before.
 */
export async function seedDemoCompleteness(stack: { apiUrl: string; env: Record<string, string> }, devicesDir: string): Promise<CompletenessSeedResult | undefined> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return undefined;
  const phones = new Map<string, DeviceState>();
  for (const name of LEDGER_PHONES) {
    const phone = loadDevice(devicesDir, name);
    if (phone === undefined) throw new Error(`No demo phone ${name} in ${devicesDir}: the demo fleet is not seeded`);
    phones.set(name, phone);
  }
  const sim: Simulator = { baseUrl: stack.apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(deps, client)).enrolmentKey };
  const now = Date.now();
  try {
    const result = await seedCompleteness({ client: CLIENT, sim, deps, phones, now });
    await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: new Date(now).toISOString() });
    return result;
  } finally {
    for (const phone of phones.values()) saveDevice(devicesDir, phone);
  }
}
