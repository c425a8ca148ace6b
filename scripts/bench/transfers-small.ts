import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { inParallel } from '#core/in-parallel.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { readTransferFile } from '#core/store/entities/transfer-file.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import type { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import { startLocalStack, type LocalStack } from '../local/stack.ts';
import { demoTransferPublicKey } from '../local/seed/transfer-config.ts';
import { formatTable } from './measure.ts';

const run = promisify(execFile);

/** The small-files case's defaults: a day of a firm's messages and photos in miniature (`--files n`, `--kib n`). */
export const SMALL_FILES = 1_000;
export const SMALL_FILE_KIB = 32;
const CLIENT = 'demo';
const DEVICE = 'bench-xfer';
/** Recordings written at once while seeding. */
const SEEDING_AT_ONCE = 16;
/** The partition attribute of the processed-time index, as payloadToItem writes it on a Processed payload. */
const PROCESSED_KEY = 'by_processed_at_pk';

export interface SmallTransfersOptions {
  files: number;
  kib: number;
  /** Where the job's time went, per port call (a slower run: every call is wrapped). */
  profile?: boolean;
}

export function smallTransfersOptions(args: readonly string[]): SmallTransfersOptions {
  const number = (flag: string, fallback: number) => {
    const at = args.indexOf(flag);
    if (at === -1) return fallback;
    const value = Number(args[at + 1]);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${flag} must be a whole number, at least 1`);
    return value;
  };
  return { files: number('--files', SMALL_FILES), kib: number('--kib', SMALL_FILE_KIB), profile: args.includes('--profile') };
}

interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
  files?: number;
  transferId?: string;
  state?: string;
  invocations?: number;
  profile?: string;
}

async function runChild(args: string[], env: Record<string, string>): Promise<ChildResult> {
  const child = fileURLToPath(new URL('./transfers-small-child.ts', import.meta.url));
  // process.execArgv carries tsx's loader flags, so the child resolves `#core/*` and .ts imports as this process does.
  // BENCH_CPU_PROFILE=<folder>: each child writes a V8 CPU profile there (where its own time went).
  const profiling = process.env.BENCH_CPU_PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`];
  const { stdout } = await run(process.execPath, [...process.execArgv, ...profiling, child, ...args], { env: { ...process.env, ...env }, timeout: 30 * 60_000, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as ChildResult;
}

/** A WAV file's first bytes (so the delivered name ends `.wav`), then noise: a short call as a phone records it. */
function wav(bytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(bytes - 8, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  return Buffer.concat([header, randomBytes(Math.max(0, bytes - 44))]);
}

/**
 * `files` recordings of `bytes` each, as processing leaves them: sealed with the tenant's device key as a phone seals
 * them (sealPayload), the sealed object in the raw bucket as uploaded, and the payload item Processed as the store's
 * writer (payloadToItem) gives it, with its processed-time keys. Processing itself is not run: at about a second a
 * recording on a busy machine it would take longer than the case, and the payload bench measures it. The transfer
 * reads exactly what it reads after a real upload (the item's seal and the raw object, decrypted and checked against
 * the device's checksum). Their plaintexts are kept in `folder` for the plain put; answers their SHA-256 by reference.
 */
async function seedRecordings(deps: Dependencies, folder: string, files: number, bytes: number): Promise<Map<string, string>> {
  await deps.table.put({ ...keys.device.item(CLIENT, DEVICE), client: CLIENT, device_reference: DEVICE });
  const { kek, kekId } = await deviceKeysOf(deps, CLIENT);
  const sha256 = new Map<string, string>();
  const time = new Date(Date.now() - 60_000).toISOString();
  let indexed = false;
  await inParallel(
    Array.from({ length: files }, (_, index) => index),
    SEEDING_AT_ONCE,
    async () => {
      const reference = ulid();
      const content = wav(bytes);
      const sealed = sealPayload({ kek, client: CLIENT, keyId: kekId, content, meta: { payload_time: time, second_parties: [{ phone_number: '+447700900123', direction: 'O' }] } });
      await deps.blobs.put('raw', payloadObjectKey(CLIENT, reference), sealed.ciphertext);
      const item = payloadToItem(CLIENT, {
        client: CLIENT,
        payload_reference: reference,
        payload_type: 'Call',
        payload_state: 'Processed',
        payload_time: time,
        device_reference: DEVICE,
        key_id: sealed.registration.key_id,
        encrypted_dek: sealed.registration.encrypted_dek,
        content_iv: sealed.registration.iv,
        sealed_meta: sealed.registration.meta,
        checksum: sealed.registration.checksum,
        payload_duration: 1,
        is_legacy: false,
        is_late: false,
        uploaded_at: time,
        processed_at: new Date().toISOString(),
        created_at: time,
        updated_at: time,
        updated_by: 'bench',
      });
      indexed ||= PROCESSED_KEY in item;
      await deps.table.put(item, { condition: { kind: 'item-not-exists' } });
      writeFileSync(join(folder, `${reference}.wav`), content);
      sha256.set(reference, sealed.registration.checksum);
    },
  );
  // The tenant's index is whole when the writer gave every recording its processed-time keys, as the backfill marks
  // it on the account (transfer selection reads the index then).
  if (indexed) await deps.table.update(keys.account.item(CLIENT), { set: { processed_indexed_at: new Date().toISOString() } }, { condition: { kind: 'item-exists' } });
  return sha256;
}

/** The configuration's body: the demo's packaging (ZippedWithPassword + PGP) to the stack's SFTP stand-in. */
function configRequest(stack: LocalStack, root: string, format: 'ZippedWithPassword' | 'Uncompressed'): TransferConfigRequest {
  return {
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call'],
    schedule: '',
    pgp_key: demoTransferPublicKey(),
    transfer_file_format: format,
    is_active: true,
    params: { server: stack.sftp.host, port: stack.sftp.port, root_directory: root, username: stack.sftp.username, host_key_fingerprint: stack.sftp.hostKeyFingerprint },
    secured_data: { ...(format === 'ZippedWithPassword' ? { zip_password: 'bench zip password' } : {}), sftp_password: stack.sftp.password },
  };
}

/**
 * The configuration, through the API as a user makes it (its secrets sealed), before anything else runs: on a busy
 * machine the stack's first token check may time out fetching its own keys, so a 5xx is tried again.
 */
async function createConfig(stack: LocalStack, reference: string, body: TransferConfigRequest): Promise<void> {
  const token = await signInDemoAccount(stack.apiUrl, 'admin@demo.test');
  for (let attempt = 1; ; attempt += 1) {
    const created = await fetch(`${stack.apiUrl}/api/v1/${CLIENT}/transfer_configs/${reference}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (created.ok) return;
    if (created.status < 500 || attempt >= 3) throw new Error(`POST transfer_configs answered ${created.status}: ${await created.text()}`);
  }
}

/**
 * What the job recorded must be what arrived: every recording Delivered once, its delivered SHA-256 the one of the
 * file on disk, the device's checksum its entry's, nothing left under a temporary name, and the manifests written.
 */
async function checkDelivered(deps: Dependencies, stack: LocalStack, root: string, transferId: string, sha256: Map<string, string>): Promise<void> {
  const stored = await deps.table.get(keys.transfer.key(CLIENT, transferId), { consistent: true });
  if (stored === undefined) throw new Error(`no transfer ${transferId}`);
  const transfer = readTransfer(stored);
  if (transfer.transfer_state !== 'Succeeded') throw new Error(`transfer ${transferId} ended ${transfer.transfer_state}`);
  const folder = join(stack.sftp.root, root, transferId);
  const onDisk = readdirSync(folder);
  if (onDisk.some((name) => name.endsWith('.partial'))) throw new Error(`${folder} holds temporary files`);
  const seen = new Set<string>();
  for await (const page of eachPage(deps.table, { ...keys.transferFile.list(CLIENT, transferId), consistent: true }, 100)) {
    for (const file of page.map(readTransferFile)) {
      if (file.file_state !== 'Delivered') throw new Error(`${file.name} ended ${file.file_state}: ${file.last_error ?? ''}`);
      const arrived = createHash('sha256').update(readFileSync(join(stack.sftp.root, root, file.relative_path ?? ''))).digest('hex');
      if (arrived !== file.checksums.delivered_sha256) throw new Error(`${file.name}: on disk it hashes to ${arrived}, recorded ${file.checksums.delivered_sha256}`);
      if (file.payload_reference !== undefined) {
        if (file.entry_sha256 !== sha256.get(file.payload_reference)) throw new Error(`${file.name}: its entry is not the recording the device made`);
        seen.add(file.payload_reference);
      }
    }
  }
  if (seen.size !== sha256.size || onDisk.length !== sha256.size + 2) {
    throw new Error(`${seen.size} of ${sha256.size} recordings recorded delivered, ${onDisk.length} files on disk (the recordings and 2 manifests expected)`);
  }
}

/**
 * `npm run bench -- transfers` (the small-files case; `--small-only` runs it alone): `files` recordings of `kib` KiB
 * made as a phone's are, then delivered by the real `transfer` job (in a child process, as the function would run it)
 * to the stack's SFTP stand-in, ZippedWithPassword + PGP as the demo's configuration, against a plain put of the same
 * plaintext files over one connection through the same SFTP client (also a child). Both ratios count recordings per
 * second; the job's run is checked afterwards file by file (./transfers-small.ts checkDelivered). Loopback only.
 */
export async function benchSmallTransfers(options: SmallTransfersOptions): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'verity-bench-transfers-small-'));
  const stack = await startLocalStack({ dataDir: join(directory, 'stack'), port: 0, quiet: true, inMemoryDynamo: true });
  try {
    const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
    const reference = `bench-small-${randomBytes(3).toString('hex')}`;
    const root = `/${reference}`;
    await createConfig(stack, reference, configRequest(stack, root, 'ZippedWithPassword'));
    const plaintexts = join(directory, 'recordings');
    mkdirSync(plaintexts);
    const seeding = performance.now();
    const sha256 = await seedRecordings(deps, plaintexts, options.files, options.kib * 1024);
    const seededSeconds = (performance.now() - seeding) / 1000;

    const sftp = { host: stack.sftp.host, port: stack.sftp.port, username: stack.sftp.username, password: stack.sftp.password, hostKeyFingerprint: stack.sftp.hostKeyFingerprint };
    const plainPut = (folder: string) => runChild(['plain', plaintexts, folder], { BENCH_SFTP: JSON.stringify(sftp) });
    const plainBefore = await plainPut('plain-before');

    const job = await runChild(['job', CLIENT, reference], { ...(stack.env as unknown as Record<string, string>), ...(options.profile === true ? { BENCH_PROFILE: '1' } : {}) });
    await checkDelivered(deps, stack, root, job.transferId ?? '', sha256);
    // The baseline again after the job, so a machine busier during one run than the other weighs on both sides.
    const plainAfter = await plainPut('plain-after');
    const plain: ChildResult = {
      seconds: (plainBefore.seconds + plainAfter.seconds) / 2,
      cpuSeconds: (plainBefore.cpuSeconds + plainAfter.cpuSeconds) / 2,
      maxRssMiB: Math.max(plainBefore.maxRssMiB, plainAfter.maxRssMiB),
    };

    const rate = (files: number, result: ChildResult) => files / result.seconds;
    const ratio = rate(options.files, job) / rate(options.files, plain);
    const rows = [
      ['plain SFTP put, one connection, one file after another (baseline)', String(options.files), `${plain.seconds.toFixed(1)} s`, `${rate(options.files, plain).toFixed(1)} files/s`, '1.00', '', `${plain.cpuSeconds.toFixed(1)} s`],
      [
        `transfer job, ZippedWithPassword + PGP (${job.invocations ?? 1} invocation${job.invocations === 1 ? '' : 's'})`,
        `${options.files} + 2 manifests`,
        `${job.seconds.toFixed(1)} s`,
        `${rate(options.files, job).toFixed(1)} files/s`,
        ratio.toFixed(2),
        ratio >= 0.5 ? 'ok' : 'UNDER 0.5',
        `${job.cpuSeconds.toFixed(1)} s`,
      ],
    ];
    const table = formatTable(['delivery', 'files', 'time', 'recordings per second', 'ratio', 'aim ≥ 0.5', 'CPU (child)'], rows);
    const note = [
      `(${options.files} recordings of ${options.kib} KiB, sealed and stored as processed in ${seededSeconds.toFixed(0)} s; one child process per run, to the stack's SFTP stand-in on loopback;`,
      ` the baseline is the mean of a put before the job (${plainBefore.seconds.toFixed(1)} s) and one after (${plainAfter.seconds.toFixed(1)} s); the job's deliveries checked file by file afterwards)`,
    ].join('\n');
    return `${table}\n${note}${job.profile === undefined ? '' : `\n\nWhere the job's time went:\n${job.profile}`}`;
  } finally {
    await stack.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
