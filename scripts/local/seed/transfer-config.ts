import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { keys } from '#core/store/keys.ts';
import { TRANSFERABLE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo transfer configuration of tenant `demo`: every transferable payload type, daily at 02:00 UTC, zipped with
 * a password and encrypted to the demo PGP key, delivered to the local SFTP stand-in (a customer's SFTP server). It is
 * created once, through the real API as admin@demo.test, so its secrets are sealed and its schedule made exactly as a
 * user's would be. The private half of the key (`demo-transfer-pgp-private.asc`, no passphrase) decrypts what arrives:
 * README, "Local stack".
 */
export const DEMO_TRANSFER_CONFIG = 'demo-sftp';
/** The password of the demo delivery's zip (ZippedWithPassword): documentation, as the demo account password is. */
export const DEMO_ZIP_PASSWORD = 'Verity-zip-1';
/** The folder deliveries go to on the SFTP stand-in (`.data/sftp/root/verity-transfers/`). */
export const DEMO_TRANSFER_DIRECTORY = '/verity-transfers';
export const TRANSFER_CONFIG_VERSION = 'v1';

const CLIENT = 'demo';
const markerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_TRANSFER_CONFIG_${TRANSFER_CONFIG_VERSION}`);

/** The demo public key (the private key beside it is for the person reading the deliveries). */
export function demoTransferPublicKey(): string {
  return readFileSync(join(import.meta.dirname, 'demo-transfer-pgp-public.asc'), 'utf8');
}

/** The configuration's request body, for the SFTP stand-in at `sftp` (its address and account in this run). */
export function demoTransferConfigRequest(sftp: { host: string; port: number; username: string; password: string; hostKeyFingerprint: string }): TransferConfigRequest {
  return {
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: [...TRANSFERABLE_PAYLOAD_TYPES],
    schedule: 'cron(0 2 * * ? *)',
    pgp_key: demoTransferPublicKey(),
    transfer_file_format: 'ZippedWithPassword',
    is_active: true,
    // The stand-in's host key, made once per data folder: deliveries refuse a server whose key is not pinned.
    params: { server: sftp.host, port: sftp.port, root_directory: DEMO_TRANSFER_DIRECTORY, username: sftp.username, host_key_fingerprint: sftp.hostKeyFingerprint },
    secured_data: { zip_password: DEMO_ZIP_PASSWORD, sftp_password: sftp.password },
  };
}

/**
 * Creates the demo configuration once (marker item); a configuration of that name made or deleted by a user since is
 * left as they left it. Answers whether it created it.
 */
export async function seedDemoTransferConfig(stack: {
  apiUrl: string;
  env: Record<string, string>;
  sftp: { host: string; port: number; username: string; password: string; hostKeyFingerprint: string };
}): Promise<boolean> {
  const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
  if ((await deps.table.get(markerKey(), { consistent: true })) !== undefined) return false;
  const token = await signInDemoAccount(stack.apiUrl, 'admin@demo.test');
  const response = await fetch(`${stack.apiUrl}/api/v1/${CLIENT}/transfer_configs/${DEMO_TRANSFER_CONFIG}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(demoTransferConfigRequest(stack.sftp)),
  });
  // 409: someone made it through the portal first; keep theirs.
  if (!response.ok && response.status !== 409) throw new Error(`POST transfer config answered ${response.status}: ${await response.text()}`);
  await deps.table.put({ ...markerKey(), entity: 'LocalSeed', seeded_at: new Date().toISOString() });
  return response.ok;
}
