import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { keys } from '#core/store/keys.ts';
import type { CreateErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo erasure request of tenant `demo` (docs/erasure.md): du-dev asks by email to have their data erased. It is
 * recorded once, through the real API as admin@demo.test, so its decision job runs as for any request; nobody reviews
 * it, so nothing is erased (du-dev is onboarded: the decision keeps their records under 17(3)(b)). The screen then shows
 * a decided request waiting for a second person.
 */
export const ERASURE_SEED_VERSION = 'v1';

const CLIENT = 'demo';
const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_ERASURE_${ERASURE_SEED_VERSION}`);

/** The demo request: received by email an hour before it is recorded. */
export function demoErasureRequest(now: Date): CreateErasureRequest {
  return {
    device_user_reference: 'du-dev',
    requester: { type: 'DataSubject' },
    received_at: new Date(now.getTime() - 3_600_000).toISOString().slice(0, 19),
    channel: 'Email',
    note: 'Demo: asked by email to erase everything held about them.',
  };
}

/** Records the demo request once (marker item); one reviewed by a user since is left as they left it. */
export async function seedDemoErasureRequest(stack: { apiUrl: string; env: Record<string, string> }): Promise<boolean> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return false;
  const token = await signInDemoAccount(stack.apiUrl, 'admin@demo.test');
  const response = await fetch(`${stack.apiUrl}/api/v1/${CLIENT}/account/erasure_requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(demoErasureRequest(new Date())),
  });
  if (!response.ok) throw new Error(`POST account/erasure_requests answered ${response.status}: ${await response.text()}`);
  await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: new Date().toISOString() });
  return true;
}
