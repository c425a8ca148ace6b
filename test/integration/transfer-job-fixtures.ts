import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import type { JobRunner } from '#core/ports/job-runner.ts';
import { readTransfer, transferToItem, type TransferItem } from '#core/store/entities/transfer.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { transferJob, type TransferJobOptions } from '../../lambdas/transfers/job/transfer-job.ts';
import { startSftp, type LocalSftp } from '../../scripts/local/sftp.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/** Shared by the transfer job's integration tests: recordings made through the real pipeline, a receiver's server. */

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `verity-${name}-`));

export interface Recording {
  reference: string;
  type: string;
  content: Buffer;
  sha256: string;
}

/** A WAV file's first bytes (so the delivered name ends `.wav`), then noise. */
export function wav(bytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  return Buffer.concat([header, randomBytes(bytes)]);
}

export const jpeg = (bytes: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(bytes)]);

const TIME = '2026-11-20T10:00:00.000Z';
const META: Record<string, unknown> = {
  Call: { payload_time: TIME, second_parties: [{ phone_number: '+447700900123', direction: 'O' }] },
  SMS: { payload_time: TIME, direction: 'I', thread_id: 't-1', message_parties: [{ phone_number: '+447700900124' }] },
  Photo: { payload_time: TIME },
  Video: { payload_time: TIME },
  Interview: { payload_time: TIME },
};

/** Seals, uploads, registers and processes one recording of `client`'s device `dev-xfer`: it ends Processed. */
export async function record(deps: Dependencies, client: string, type: string, content: Buffer): Promise<Recording> {
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const reference = ulid();
  const sealed = sealPayload({ kek, client, keyId: kekId, content, meta: META[type] ?? { payload_time: TIME } });
  await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference: 'dev-xfer' }, { payload_reference: reference, payload_type: type, ...sealed.registration } as never);
  await processPayload(deps, client, reference);
  const state = (await deps.table.get(keys.payload.key(client, reference)))?.payload_state;
  if (state !== 'Processed') throw new Error(`recording ${reference} ended ${String(state)}`);
  return { reference, type, content, sha256: createHash('sha256').update(content).digest('hex') };
}

export async function addDevice(deps: Dependencies, client: string): Promise<void> {
  await deps.table.put({ ...keys.device.item(client, 'dev-xfer'), client, device_reference: 'dev-xfer' });
}

/** A receiver's SFTP server for one test file: the local stand-in on a free port, its own folder and account. */
export async function receiverSftp(): Promise<LocalSftp> {
  // On the tests' stand-in address, which the egress policy lets through (the stack's allow-list does not name this port).
  return startSftp({ directory: tempDir('xfer-sftp'), host: TENANT_STAND_IN_HOST, port: 0, username: 'receiver', password: `pw-${randomBytes(6).toString('hex')}` });
}

/** A JobRunner that only remembers what was started (a hand-over), so the test runs the next invocation itself. */
export function capturingJobs(): JobRunner & { started: Array<{ job: string; input: Record<string, unknown> }> } {
  const started: Array<{ job: string; input: Record<string, unknown> }> = [];
  return {
    started,
    async start(job, input) {
      started.push({ job, input });
    },
  };
}

/** Records a Pending transfer of a configuration as run now does, without starting the stack's job. */
export async function pendingTransfer(deps: Dependencies, client: string, configReference: string, transferType: 'Payload' | 'Vantage' = 'Payload'): Promise<string> {
  const now = new Date();
  const transfer: TransferItem = {
    client,
    transfer_id: ulid(now.getTime()),
    transfer_config_reference: configReference,
    transfer_type: transferType,
    created_at: now.toISOString(),
    transfer_state: 'Pending',
    transfers: [],
    related_payloads: [],
    payload_count: 0,
    started_by: 'test',
  };
  await deps.table.put(transferToItem(transfer), { condition: { kind: 'item-not-exists' } });
  return transfer.transfer_id;
}

/** Runs the job, then every hand-over it asks for, until the transfer is finished; returns how many invocations ran. */
export async function runToEnd(
  deps: Dependencies,
  input: Record<string, unknown>,
  options: TransferJobOptions = {},
): Promise<{ invocations: number; results: Array<Record<string, unknown>> }> {
  const jobs = capturingJobs();
  const jobDeps = { ...deps, jobs };
  const results = [await transferJob(jobDeps, input, options)];
  while (jobs.started.length > 0) {
    const next = jobs.started.shift() as { input: Record<string, unknown> };
    results.push(await transferJob(jobDeps, next.input, options));
  }
  return { invocations: results.length, results };
}

export async function storedTransfer(deps: Dependencies, client: string, transferId: string): Promise<TransferItem> {
  const item = await deps.table.get(keys.transfer.key(client, transferId), { consistent: true });
  if (item === undefined) throw new Error(`no transfer ${transferId}`);
  return readTransfer(item);
}
