import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { keys } from '#core/store/keys.ts';
import type { CaseCreateRequest } from '#shared/contract/entities/cases.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo case of tenant `demo` (docs/cases.md): two custodians of the demo fleet (du-alice and du-bram) and the
 * counterparties their demo calls and messages name (fleet.ts: +4477009002NN, NN the phone's place in the fleet, so a
 * production of the case holds their calls, texts and MMS), over the last 90 days, with Dana Admin and Jordan
 * Approver on its team. It is opened once, through the real API as admin@demo.test, as a user would open it. It does
 * not collect and hold: the demo's other screens (retention, completeness) show the fleet unheld, so holding two of
 * its people would change them.
 */
export const CASES_VERSION = 'v1';

const CLIENT = 'demo';
const DAY_MS = 86_400_000;
const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_CASES_${CASES_VERSION}`);

/** The demo case's request: its period ends today (UTC) and starts 90 days before. */
export function demoCaseRequest(now: Date): CaseCreateRequest {
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  return {
    title: 'Demo: Q2 rates desk enquiry',
    description: 'A regulator asks for the rates desk’s calls and messages with one counterparty. Two custodians, no legal hold.',
    custodians: { device_users: ['du-alice', 'du-bram'], portal_users: [] },
    counterparty_numbers: ['+447700900200', '+447700900201'],
    period: { from: `${day(now.getTime() - 90 * DAY_MS)}T00:00:00Z`, to: `${day(now.getTime())}T23:59:59Z` },
    payload_types: ['Call', 'SMS', 'MMS'],
    team: ['demo-approver'],
    support_may_view: false,
    collect_and_hold: false,
  };
}

/** Opens the demo case once (marker item); one closed or changed by a user since is left as they left it. */
export async function seedDemoCase(stack: { apiUrl: string; env: Record<string, string> }): Promise<boolean> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return false;
  const token = await signInDemoAccount(stack.apiUrl, 'admin@demo.test');
  const response = await fetch(`${stack.apiUrl}/api/v1/${CLIENT}/cases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(demoCaseRequest(new Date())),
  });
  if (!response.ok) throw new Error(`POST cases answered ${response.status}: ${await response.text()}`);
  await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: new Date().toISOString() });
  return true;
}
