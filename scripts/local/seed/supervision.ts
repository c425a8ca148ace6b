import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { LEXICON_MESSAGE_TYPES, LEXICON_NOTES_TYPES } from '#shared/constants/supervision.ts';
import { SupervisionPolicyRequest } from '#shared/contract/entities/supervision.ts';
import { deviceKeysOf } from '../../../lambdas/device-crypto/device-keys.ts';
import { supervisionDailyJob } from '../../../lambdas/supervision/public.ts';
import { loadDevice, saveDevice, type DeviceState } from '../../device/device-state.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import { record } from '../../device/recorder.ts';
import type { Simulator } from '../../device/simulator.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo supervision of tenant `demo`, seeded once (marker item) after the demo fleet, so the review queue has work
 * on first sign-in. Everything goes through the real paths: the policies are created through the API as
 * admin@demo.test (their sampling seeds made as a user's are), then the fleet's phones send messages through the
 * device simulator and the payload pipeline, whose processing evaluates them against the policies that now exist and
 * raises the items. The calls the fleet recorded before the policies existed are drawn by applying the sampling policy
 * to the seeded period (`POST …/apply`, the `supervision-apply` job), as a supervisor would for a new policy, and its
 * "at least one a day" by the `supervision-daily` job for the seeded days that are over.
 */
export const SUPERVISION_SEED_VERSION = 'v1';
const CLIENT = 'demo';
const ADMIN = 'admin@demo.test';
const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_SUPERVISION_${SUPERVISION_SEED_VERSION}`);

export const CONDUCT_RISK_POLICY = 'conduct-risk';
export const DISCLAIMER_POLICY = 'disclaimer';
export const CALL_SAMPLING_POLICY = 'call-sampling';
/** The disclaimer the firm's messages carry: its "guarantee" is noise the Ignore policy suppresses. */
export const DEMO_DISCLAIMER = 'This message is not a guarantee of future performance.';

export interface SeedPolicy {
  policy_reference: string;
  request: SupervisionPolicyRequest;
}

/** The demo policies, parsed by the contract here so a wrong one fails at start, not as a 400 in the middle of the seed. */
export const DEMO_SUPERVISION_POLICIES: readonly SeedPolicy[] = [
  {
    policy_reference: CONDUCT_RISK_POLICY,
    request: SupervisionPolicyRequest.parse({
      kind: 'Lexicon',
      description: 'Conduct risk: promised returns, moving off recorded channels, destroying records',
      // A word, phrases, a prefix (compensate, compensation…) and a proximity term (term syntax:
      // shared/supervision/lexicon/term-syntax.ts).
      terms: ['guarantee', 'off the record', 'delete this', 'whatsapp', 'compensat*', 'keep NEAR/3 between us'],
      scope: { payload_types: [...LEXICON_MESSAGE_TYPES, ...LEXICON_NOTES_TYPES] },
      review_days: 5,
    }),
  },
  {
    policy_reference: DISCLAIMER_POLICY,
    request: SupervisionPolicyRequest.parse({
      kind: 'Ignore',
      description: 'The standard disclaimer: its words raise nothing',
      terms: [DEMO_DISCLAIMER.replace(/\.$/, '')],
      scope: { payload_types: [...LEXICON_MESSAGE_TYPES, ...LEXICON_NOTES_TYPES] },
    }),
  },
  {
    policy_reference: CALL_SAMPLING_POLICY,
    request: SupervisionPolicyRequest.parse({
      kind: 'Sampling',
      description: 'One call in ten of each supervised person, at least one a day',
      sample_percent: 10,
      sample_minimum: 1,
      scope: { payload_types: ['Call'] },
      review_days: 10,
    }),
  },
];

/** One recording a fleet phone makes for supervision: an SMS with its text, or an interview, photo or video with notes. */
export interface DemoSupervisedRecording {
  /** The fleet phone (scripts/local/seed/fleet.ts names them demo-<first name>). */
  phone: string;
  type: 'SMS' | 'Interview' | 'Photo' | 'Video';
  /** The message's text, or the notes. */
  text: string;
  /** An SMS the person received (`I`) rather than sent. */
  direction?: 'I';
  hoursAgo: number;
}

/**
 * What the fleet says: messages that hit the conduct-risk terms, one notes hit, one disclaimer alone (raises nothing:
 * the Ignore policy suppresses its "guarantee"), and one disclaimer followed by a real promise (raised for the promise).
 */
export const DEMO_SUPERVISED_RECORDINGS: readonly DemoSupervisedRecording[] = [
  { phone: 'demo-alice', type: 'SMS', text: 'Between you and me, I guarantee this stock doubles by Christmas.', hoursAgo: 20 },
  { phone: 'demo-alice', type: 'SMS', text: "Let's keep this off the record. Call me on my own phone tonight.", hoursAgo: 6 },
  { phone: 'demo-alice', type: 'SMS', text: `Our income fund returned 8% last year. ${DEMO_DISCLAIMER}`, hoursAgo: 5 },
  { phone: 'demo-bram', type: 'SMS', text: 'Got it. Please delete this thread once you have read it.', hoursAgo: 18 },
  { phone: 'demo-bram', type: 'SMS', text: 'Can we move this chat to WhatsApp? Easier for me.', direction: 'I', hoursAgo: 4 },
  { phone: 'demo-bram', type: 'SMS', text: `${DEMO_DISCLAIMER} Honestly though, I guarantee you will be pleased.`, hoursAgo: 2 },
  { phone: 'demo-erin', type: 'SMS', text: 'If the bond drops before Friday we will compensate you for the difference.', hoursAgo: 9 },
  { phone: 'demo-erin', type: 'SMS', text: 'Keep this just between us until the deal is announced.', hoursAgo: 3 },
  { phone: 'demo-chloe', type: 'Photo', text: 'Whiteboard after the desk meeting; the client asked to talk on WhatsApp instead.', hoursAgo: 7 },
];

/** How far back the sampling policy is applied: the demo media are spread over the last two days. */
const SAMPLED_DAYS = 3;
const DAY_MS = 86_400_000;

/** Where the supervision seed writes: a tenant, a caller allowed every `supervision:` action there, and its phones. */
export interface SupervisionSeedTarget {
  apiUrl: string;
  client: string;
  /** A bearer token of that caller. */
  token: string;
  sim: Simulator;
  /** The stack's store, for the daily sampling job the seed runs as its schedule would have. */
  deps: Pick<Dependencies, 'table' | 'clock' | 'jobs' | 'config'>;
  /** The phones DEMO_SUPERVISED_RECORDINGS name, by name. */
  phones: ReadonlyMap<string, DeviceState>;
  /** The seed's "now" (ms): recordings are placed before it. */
  now: number;
}

export interface SupervisionSeedResult {
  /** Each seeded recording's payload reference, in the order of DEMO_SUPERVISED_RECORDINGS. */
  references: string[];
  /** The period the sampling policy was applied to (days, as the apply request takes them). */
  sampledPeriod: { from: string; to: string };
  /** The days the daily top-up ran for (the period's days that are over). */
  toppedUpDays: string[];
}

/** Calls the tenant's API; a refusal (other than `allowed`) fails the seed, naming the call. */
async function seedCall(target: SupervisionSeedTarget, call: { method: string; path: string; body: unknown; allowed?: number }): Promise<boolean> {
  const response = await fetch(`${target.apiUrl}/api/v1/${target.client}${call.path}`, {
    method: call.method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
  });
  if (response.ok) return true;
  if (response.status === call.allowed) return false;
  throw new Error(`${call.method} ${call.path} answered ${response.status}: ${await response.text()}`);
}

/** The recording through the pipeline, which must end Processed (its processing is what evaluates it). */
async function recordForSupervision(target: SupervisionSeedTarget, phone: DeviceState, recording: DemoSupervisedRecording): Promise<string> {
  const at = new Date(target.now - recording.hoursAgo * 3_600_000);
  const options = recording.type === 'SMS' ? { text: recording.text, ...(recording.direction === undefined ? {} : { direction: recording.direction }) } : { notes: recording.text };
  const [result] = await record(target.sim, phone, recording.type, { at, ...options });
  if (result?.state !== 'processed' || result.payload_reference === undefined) {
    const why = result?.refused === undefined ? result?.state : `${result.refused.status} ${JSON.stringify(result.refused.body)}`;
    throw new Error(`record ${recording.type} on ${phone.name} ended ${why}, expected processed`);
  }
  return result.payload_reference;
}

/**
 * The supervision seed proper: the policies through the API (a policy of the same reference made by a user first, 409,
 * is kept as they made it), then the phones' recordings through the pipeline (processing evaluates them against the
 * policies that now exist), then the sampling policy applied to the last days (the job runs on; its progress is the
 * policy's `last_apply`) and the daily top-up run for those days. The phones' states move with each call: the caller
 * saves them.
 */
export async function seedSupervision(target: SupervisionSeedTarget): Promise<SupervisionSeedResult> {
  for (const policy of DEMO_SUPERVISION_POLICIES) {
    await seedCall(target, { method: 'POST', path: `/supervision/policies/${policy.policy_reference}`, body: policy.request, allowed: 409 });
  }

  // One phone's recordings in order (its tokens move with each call), the phones side by side.
  const references = new Array<string>(DEMO_SUPERVISED_RECORDINGS.length);
  await Promise.all(
    [...target.phones].map(async ([name, phone]) => {
      for (const [index, recording] of DEMO_SUPERVISED_RECORDINGS.entries()) {
        if (recording.phone === name) references[index] = await recordForSupervision(target, phone, recording);
      }
    }),
  );

  // The fleet's calls were recorded before the sampling policy existed: apply it to their period.
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  const sampledPeriod = { from: day(target.now - SAMPLED_DAYS * DAY_MS), to: day(target.now) };
  await seedCall(target, { method: 'POST', path: `/supervision/policies/${CALL_SAMPLING_POLICY}/apply`, body: sampledPeriod, allowed: 409 });
  // "At least one a day": the daily job's top-up for each of those days that is over, as its schedule would have run it
  // (today's waits for tomorrow's run, when the day is complete). Whichever of it and the apply job runs first, the
  // same calls end in the queue: the top-up counts the share's picks by their hash, not by the items.
  const toppedUpDays: string[] = [];
  for (let back = SAMPLED_DAYS; back >= 1; back -= 1) toppedUpDays.push(day(target.now - back * DAY_MS));
  for (const each of toppedUpDays) await supervisionDailyJob(target.deps, { client: target.client, day: each });
  return { references, sampledPeriod, toppedUpDays };
}

/**
 * Seeds the demo supervision of tenant `demo` once (marker item), as admin@demo.test with the demo fleet's phones
 * from `devicesDir` (seedDemoFleet first); answers what it recorded, or undefined when it had run before.
 */
export async function seedDemoSupervision(stack: { apiUrl: string; env: Record<string, string> }, devicesDir: string): Promise<SupervisionSeedResult | undefined> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return undefined;
  const phones = new Map<string, DeviceState>();
  for (const name of new Set(DEMO_SUPERVISED_RECORDINGS.map((recording) => recording.phone))) {
    const phone = loadDevice(devicesDir, name);
    if (phone === undefined) throw new Error(`No demo phone ${name} in ${devicesDir}: the demo fleet is not seeded`);
    phones.set(name, phone);
  }
  const sim: Simulator = { baseUrl: stack.apiUrl, enrolmentKey: async (client) => (await deviceKeysOf(deps, client)).enrolmentKey };
  const token = await signInDemoAccount(stack.apiUrl, ADMIN);
  const now = Date.now();
  try {
    const result = await seedSupervision({ apiUrl: stack.apiUrl, client: CLIENT, token, sim, deps, phones, now });
    await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: new Date(now).toISOString() });
    return result;
  } finally {
    for (const phone of phones.values()) saveDevice(devicesDir, phone);
  }
}
