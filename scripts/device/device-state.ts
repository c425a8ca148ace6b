import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LedgerEntryReport } from '#shared/contract/entities/completeness.ts';

/**
 * A recording the phone made but has not uploaded (`record --late`): the recorder makes the same media again from
 * these options (they fix its time, party and text), so the state file keeps no media.
 */
export const HeldRecording = z.object({
  type: z.string(),
  at: z.string(),
  seed: z.number().optional(),
  other_number: z.string().optional(),
  text: z.string().optional(),
  direction: z.enum(['I', 'O']).optional(),
  short_seconds: z.int().min(0).optional(),
});
export type HeldRecording = z.infer<typeof HeldRecording>;

/** What one simulated phone remembers between commands (its app storage plus the hardware facts). */
export const DeviceState = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'letters, digits, _ and - only (1 to 64)' }),
  client: z.string(),
  device_reference: z.string(),
  /** The sealed reference, as the app keeps it after enrolment. */
  ulid_encrypted: z.string(),
  phone_numbers: z.array(z.string()).min(1),
  imeis: z.array(z.string()).min(1),
  /** Unset: the app does not send one (an old app version): NoInstallationId. */
  installation_id: z.string().optional(),
  model: z.string(),
  os_version: z.string(),
  app_version: z.string(),
  serial_number: z.string(),
  access_token: z.string().optional(),
  /** Epoch milliseconds. */
  token_expires_at: z.number().optional(),
  last_install_state: z.string().optional(),
  /** Where the phone is (the GPS trail walks from here). */
  position: z.object({ latitude: z.number(), longitude: z.number() }),
  /** What the call log and message store saw and the server has not yet taken (ledger.ts); reported oldest first. */
  ledger: z.array(LedgerEntryReport).optional(),
  /** The stores' last row number: each entry's id is the next, never reused. */
  ledger_sequence: z.int().min(0).optional(),
  /** How far the last accepted ledger report covered. */
  ledger_covered_to: z.string().optional(),
  /** Recordings held back (`record --late`) until `upload-held` sends them: what to record again, not the bytes. */
  held: z.array(HeldRecording).optional(),
});
export type DeviceState = z.infer<typeof DeviceState>;

/** The state files of a directory: `<dir>/<name>.json`. Names are checked, so a name cannot walk out of it. */
export function statePath(directory: string, name: string): string {
  DeviceState.shape.name.parse(name);
  return join(directory, `${name}.json`);
}

export function saveDevice(directory: string, state: DeviceState): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // The token is a credential of the simulated phone: owner-only, like the app's private storage.
  writeFileSync(statePath(directory, state.name), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** The device named `name`, or undefined when no such file exists. A corrupt file throws (naming the file). */
export function loadDevice(directory: string, name: string): DeviceState | undefined {
  let text: string;
  try {
    text = readFileSync(statePath(directory, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = DeviceState.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${statePath(directory, name)} is not a device state file`);
  return parsed.data;
}

/** Names of the saved devices, sorted. */
export function listDevices(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .filter((name) => DeviceState.shape.name.safeParse(name).success)
      .sort();
  } catch {
    return [];
  }
}
