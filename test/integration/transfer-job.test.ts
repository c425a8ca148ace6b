import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { readTransferFile } from '#core/store/entities/transfer-file.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { TransferManifest } from '#shared/contract/entities/transfer-manifest.ts';
import { DeliveryError, openDestination, type Destination } from '../../lambdas/transfers/delivery/index.ts';
import type { DestinationOpener } from '../../lambdas/transfers/job/context.ts';
import { CONFIG_DELETED, transferJob, type TransferJobOptions } from '../../lambdas/transfers/job/transfer-job.ts';
import { createReceiver, mustRun, sha256sum, type Receiver } from '../../lambdas/transfers/packaging/outside-tools.testkit.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { TRANSFER_DESTINATION_BUCKET } from '../../scripts/local/stack.ts';
import type { LocalSftp } from '../../scripts/local/sftp.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';
import {
  addDevice,
  capturingJobs,
  jpeg,
  pendingTransfer,
  receiverSftp,
  record,
  runToEnd,
  storedTransfer,
  tempDir,
  wav,
  type Recording,
} from './transfer-job-fixtures.ts';

/**
 * The transfer job end to end on the local stand-ins: recordings made through the real pipeline (DynamoDB Local,
 * s3rver, the local key service), delivered to an SFTP server started here (the stack's stand-in program) and to the
 * local S3 (role assumption mocked on STS only), and checked with the receiver's own tools: gpg with the receiver's
 * key, 7zz with the zip password, sha256sum against the manifest and the devices' checksums.
 */
let tenant: RunTenant;
let deps: Dependencies;
let sftp: LocalSftp;
let receiver: Receiver;
const ZIP_PASSWORD = `zip-${randomBytes(4).toString('hex')}-Secret`;
const recordings: Recording[] = [];
let video: Recording;

const sftpParams = (root: string) => ({
  server: sftp.host,
  port: sftp.port,
  root_directory: root,
  username: sftp.username,
  host_key_fingerprint: sftp.hostKeyFingerprint,
});

async function createConfig(reference: string, body: Record<string, unknown>): Promise<void> {
  const created = await tenant.call('POST', `/transfer_configs/${reference}`, tenant.admin, { schedule: '', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** Waits for a transfer the stack's own job runs to finish, through the API as the portal would. */
async function settled(transferId: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const answer = await tenant.call('GET', `/transfers/${transferId}`, tenant.admin);
    expect(answer.status).toBe(200);
    if (!['Pending', 'InProgress'].includes(String(answer.body.transfer_state))) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`transfer ${transferId} did not finish`);
}


/** The tenant's TransferAlert about one transfer, as the alert engine stored it (the alerts list is for portal users). */
async function transferAlert(transferId: string): Promise<Record<string, unknown> | undefined> {
  const page = await deps.table.query({ ...keys.alert.list(tenant.client), limit: 100 });
  return page.items.find((item) => item.alert_type === 'TransferAlert' && item.alert_key === `transfer:${transferId}`);
}

beforeAll(async () => {
  tenant = await createRunTenant('xfer');
  deps = tenant.deps;
  sftp = await receiverSftp();
  receiver = createReceiver(tempDir('xfer-gpg'));
  await addDevice(deps, tenant.client);
  recordings.push(await record(deps, tenant.client, 'Call', wav(300_000)));
  recordings.push(await record(deps, tenant.client, 'Photo', jpeg(50_000)));
  recordings.push(await record(deps, tenant.client, 'SMS', Buffer.from('See you at ten, bring the contract.')));
  recordings.push(await record(deps, tenant.client, 'Call', wav(1_200)));
  // Not of the configurations' types: never carried.
  video = await record(deps, tenant.client, 'Video', randomBytes(2_000));
}, 120_000);

afterAll(async () => {
  await sftp?.stop();
  await tenant?.close();
});

describe('the transfer job', () => {
  it('delivers to SFTP as ZippedWithPassword + PGP: run now, the stack runs the job, the receiver opens every file', async () => {
    await createConfig('to-sftp', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call', 'Photo', 'SMS'],
      pgp_key: receiver.armoredPublicKey,
      transfer_file_format: 'ZippedWithPassword',
      params: sftpParams('/inbox'),
      secured_data: { zip_password: ZIP_PASSWORD, sftp_password: sftp.password },
    });
    const run = await tenant.call('POST', '/transfer_configs/to-sftp/run', tenant.admin);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const transferId = String(run.body.transfer_id);
    const transfer = await settled(transferId);
    expect(transfer).toMatchObject({
      transfer_state: 'Succeeded',
      payload_count: 4,
      files_total: 6,
      files_done: 6,
      bytes_total: recordings.reduce((sum, recording) => sum + recording.content.length, 0),
      bytes_done: recordings.reduce((sum, recording) => sum + recording.content.length, 0),
    });
    expect(transfer.completed_at).toBeDefined();
    expect(transfer.error_message).toBeUndefined();

    // Every recording arrived once, as <reference>.zip.pgp, beside the two manifests; nothing temporary is left.
    const folder = join(sftp.root, 'inbox', transferId);
    const names = readdirSync(folder).sort();
    expect(names).toEqual([...recordings.map((recording) => `${recording.reference}.zip.pgp`), 'manifest.csv.pgp', 'manifest.json.pgp'].sort());

    const work = tempDir('xfer-open');
    const open = (name: string) => {
      const out = join(work, name.replace(/\.pgp$/, ''));
      receiver.gpg(['--output', out, '--decrypt', join(folder, name)]);
      return out;
    };
    const manifest = TransferManifest.parse(JSON.parse(readFileSync(open('manifest.json.pgp'), 'utf8')));
    expect(manifest).toMatchObject({ transfer_id: transferId, transfer_config_reference: 'to-sftp', transfer_file_format: 'ZippedWithPassword', pgp_fingerprint: receiver.fingerprint });
    expect(manifest.files.map((file) => file.payload_reference).sort()).toEqual(recordings.map((recording) => recording.reference).sort());
    const csv = readFileSync(open('manifest.csv.pgp'), 'utf8').trimEnd().split('\r\n');
    expect(csv).toHaveLength(1 + recordings.length);

    for (const recording of recordings) {
      const name = `${recording.reference}.zip.pgp`;
      const file = manifest.files.find((entry) => entry.payload_reference === recording.reference);
      // The delivered file's SHA-256 is what sha256sum prints on arrival; the plaintext's is the device's own.
      expect(file?.delivered_sha256).toBe(sha256sum(join(folder, name)));
      expect(file?.plaintext_sha256).toBe(recording.sha256);
      expect(file?.dest_path).toBe(`/inbox/${transferId}/${name}`);
      expect(Date.parse(file?.recorded_at ?? '')).toBeLessThanOrEqual(Date.parse(file?.uploaded_at ?? ''));
      expect(Date.parse(file?.processed_at ?? '')).toBeLessThanOrEqual(Date.parse(file?.transferred_at ?? ''));
      const zip = open(name);
      const unpacked = join(work, recording.reference);
      mustRun('7zz', ['x', `-p${ZIP_PASSWORD}`, `-o${unpacked}`, zip]);
      const [inside] = readdirSync(unpacked);
      expect(inside).toBe(`${recording.reference}.${recording.type === 'Call' ? 'wav' : recording.type === 'Photo' ? 'jpg' : 'txt'}`);
      expect(sha256sum(join(unpacked, inside as string))).toBe(recording.sha256);
      expect(file?.archive_path).toBe(inside);
      // Without the password the archive does not open.
      expect(() => mustRun('7zz', ['t', '-pwrong', zip])).toThrow();
    }

    // The detail's files and the paged files agree with what arrived; each payload records its transfer.
    const files = await tenant.call('GET', `/transfers/${transferId}/files?limit=4`, tenant.admin);
    expect(files.status).toBe(200);
    expect(files.body.count).toBe(4);
    const rest = await tenant.call('GET', `/transfers/${transferId}/files?limit=4&last_key=${encodeURIComponent(String(files.body.last_key))}`, tenant.admin);
    const all = [...(files.body.data as Array<Record<string, unknown>>), ...(rest.body.data as Array<Record<string, unknown>>)];
    expect(all.map((file) => file.file_kind)).toEqual(['Recording', 'Recording', 'Recording', 'Recording', 'Manifest', 'Manifest']);
    for (const file of all) {
      expect(file).toMatchObject({ file_state: 'Delivered', attempts: 1 });
      const name = String(file.dest_path).split('/').pop() as string;
      expect((file.checksums as Record<string, string>).delivered_sha256).toBe(sha256sum(join(folder, name)));
    }
    expect((transfer.transfers as unknown[]).length).toBe(6);
    for (const recording of recordings) {
      const payload = await deps.table.get(keys.payload.key(tenant.client, recording.reference), { consistent: true });
      expect(typeof payload?.transferred_at).toBe('string');
      const audit = await deps.table.query({ partition: keys.payload.key(tenant.client, recording.reference).pk, sort: { beginsWith: keys.payload.auditPrefix } });
      expect(audit.items.map((item) => `${String(item.action)} ${String(item.portal_user)}`)).toEqual(['transfer job:transfer']);
      // A retention policy counting from the transfer finds the recording on the due index, at its transfer time.
      const marker = await deps.table.get(keys.retentionDue.key(tenant.client, keys.payload.key(tenant.client, recording.reference), 'transferred_at'), { consistent: true });
      expect(marker).toMatchObject({ stage: 'LIVE', base_time: payload?.transferred_at, record_type: 'PayloadData' });
    }
    const videoPayload = await deps.table.get(keys.payload.key(tenant.client, video.reference), { consistent: true });
    expect(videoPayload?.transferred_at).toBeUndefined();

    // The next run carries only what was processed since: nothing yet, so an empty manifest and no recording.
    const next = await tenant.call('POST', '/transfer_configs/to-sftp/run', tenant.admin);
    const nextTransfer = await settled(String(next.body.transfer_id));
    expect(nextTransfer).toMatchObject({ transfer_state: 'Succeeded', payload_count: 0, files_total: 2, report_from: transfer.report_to });
  }, 120_000);

  it('delivers to S3 through the customer role (STS mocked), and a Vantage report of the same records', async () => {
    const sts = mockClient(STSClient);
    const expiration = new Date(Date.now() + 3600_000);
    sts.on(AssumeRoleCommand).resolves({ Credentials: { AccessKeyId: 'AKIAXFERTEST', SecretAccessKey: 'secret', SessionToken: 'token', Expiration: expiration } });
    const roleArn = 'arn:aws:iam::123456789012:role/verity-transfer';
    const prefix = `xfer-${tenant.client}`;
    const opener: TransferJobOptions = { openDestination: (config, secrets) => openDestination({ config: { ...deps.config, VERITY_MODE: 'aws' }, logger: deps.logger, sts: new STSClient({ region: LOCAL_REGION }) }, config, secrets) };
    try {
      await createConfig('to-s3', {
        transfer_type: 'Payload',
        target_type: 'S3',
        payload_types: ['Call', 'Photo'],
        transfer_file_format: 'Zipped',
        params: { destination: `s3://${TRANSFER_DESTINATION_BUCKET}/${prefix}/media`, iam_role_arn: roleArn },
      });
      const transferId = await pendingTransfer(deps, tenant.client, 'to-s3');
      const { results } = await runToEnd(deps, { client: tenant.client, transfer_id: transferId }, opener);
      expect(results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });
      expect(sts.commandCalls(AssumeRoleCommand)[0]?.args[0].input).toMatchObject({ RoleArn: roleArn, ExternalId: `verity-${tenant.client}` });

      const s3 = new S3Client({ endpoint: stack().s3Endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
      const read = async (key: string) => Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: TRANSFER_DESTINATION_BUCKET, Key: key }))).Body!.transformToByteArray());
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: TRANSFER_DESTINATION_BUCKET, Prefix: `${prefix}/media/${transferId}/` }));
      const carried = recordings.filter((recording) => recording.type !== 'SMS');
      expect((listed.Contents ?? []).map((object) => object.Key?.split('/').pop()).sort()).toEqual(
        [...carried.map((recording) => `${recording.reference}.zip`), 'manifest.csv', 'manifest.json'].sort(),
      );
      const manifest = TransferManifest.parse(JSON.parse((await read(`${prefix}/media/${transferId}/manifest.json`)).toString('utf8')));
      const work = tempDir('xfer-s3');
      for (const recording of carried) {
        const zip = join(work, `${recording.reference}.zip`);
        writeFileSync(zip, await read(`${prefix}/media/${transferId}/${recording.reference}.zip`));
        const file = manifest.files.find((entry) => entry.payload_reference === recording.reference);
        expect(file?.dest_path).toBe(`s3://${TRANSFER_DESTINATION_BUCKET}/${prefix}/media/${transferId}/${recording.reference}.zip`);
        expect(file?.delivered_sha256).toBe(sha256sum(zip));
        mustRun('7zz', ['x', `-o${join(work, recording.reference)}`, zip]);
        const [inside] = readdirSync(join(work, recording.reference));
        expect(sha256sum(join(work, recording.reference, inside as string))).toBe(recording.sha256);
      }

      // Vantage: the metadata of the same records as CSV and JSON lines, no media.
      await createConfig('vantage-s3', {
        transfer_type: 'Vantage',
        target_type: 'S3',
        payload_types: ['Call', 'Photo'],
        transfer_file_format: 'Uncompressed',
        params: { destination: `s3://${TRANSFER_DESTINATION_BUCKET}/${prefix}/reports`, iam_role_arn: roleArn },
      });
      const reportId = await pendingTransfer(deps, tenant.client, 'vantage-s3', 'Vantage');
      const report = await runToEnd(deps, { client: tenant.client, transfer_id: reportId }, opener);
      expect(report.results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });
      expect(await storedTransfer(deps, tenant.client, reportId)).toMatchObject({ payload_count: 3, files_total: 2, files_done: 2 });
      const lines = (await read(`${prefix}/reports/${reportId}/report.jsonl`)).toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => line.payload_reference).sort()).toEqual(carried.map((recording) => recording.reference).sort());
      for (const line of lines) {
        const recording = carried.find((candidate) => candidate.reference === line.payload_reference);
        expect(line).toMatchObject({ device_sha256: recording?.sha256, device_reference: 'dev-xfer', source_bytes: recording?.content.length });
      }
      const csv = (await read(`${prefix}/reports/${reportId}/report.csv`)).toString('utf8').trimEnd().split('\r\n');
      expect(csv[0]).toMatch(/^payload_reference,payload_type,device_reference,/);
      expect(csv).toHaveLength(1 + carried.length);
    } finally {
      sts.restore();
    }
  }, 120_000);

  it('hands over before its budget ends, survives a crash mid-file, and delivers every file exactly once', async () => {
    await createConfig('resumable', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call', 'Photo', 'SMS'],
      pgp_key: receiver.armoredPublicKey,
      transfer_file_format: 'Uncompressed',
      params: sftpParams('/resume'),
      secured_data: { sftp_password: sftp.password },
    });
    const transferId = await pendingTransfer(deps, tenant.client, 'resumable');

    // Invocation 1: a budget of two files, then it hands the transfer (and its lease) to a fresh invocation.
    const jobs = capturingJobs();
    const first = await transferJob({ ...deps, jobs }, { client: tenant.client, transfer_id: transferId, max_files: 2 });
    expect(first).toMatchObject({ handed_over: true, files_handled: 2 });
    expect(jobs.started).toHaveLength(1);
    expect(jobs.started[0]?.input).toMatchObject({ client: tenant.client, transfer_id: transferId, max_files: 2, trigger: 'continue' });
    expect(await storedTransfer(deps, tenant.client, transferId)).toMatchObject({ transfer_state: 'InProgress', files_done: 2, files_total: 4 });

    // Invocation 2 dies in the middle of its second file: the destination has taken part of it and never answers.
    let reached!: () => void;
    const hung = new Promise<void>((resolve) => (reached = resolve));
    let release!: (error: Error) => void;
    const stuck = new Promise<never>((_, reject) => (release = reject));
    let puts = 0;
    const dying: DestinationOpener = (config, secrets): Promise<Destination> =>
      openDestination({ config: deps.config, logger: deps.logger }, config, secrets).then((real) => ({
        ...real,
        close: () => real.close(),
        exists: (path) => real.exists(path),
        put: (path, body) => {
          puts += 1;
          if (puts < 2) return real.put(path, body);
          async function* halfThenNothing() {
            const chunks = (body as ReadableStream<Uint8Array>).getReader();
            const firstChunk = await chunks.read();
            if (firstChunk.value !== undefined) yield firstChunk.value;
            reached();
            await stuck;
          }
          return real.put(path, halfThenNothing());
        },
      }));
    const dead = transferJob({ ...deps, jobs: capturingJobs() }, jobs.started[0]!.input, { openDestination: dying });
    await hung;
    // Its two files go at once: the first arrives whole (renamed into place), the second stays a temporary file.
    const partials = () => readdirSync(join(sftp.root, 'resume', transferId)).filter((name) => name.endsWith('.partial'));
    await vi.waitFor(() => expect(partials()).toHaveLength(1), { timeout: 30_000, interval: 100 });

    // Its lease runs out (the clock moves past it); a re-run resumes the transfer where the files stand.
    const later = { now: () => new Date(Date.now() + 10 * 60_000) };
    expect((await tenant.call('POST', `/transfers/${transferId}/run`, tenant.admin)).status).toBe(409);
    const resumed = await runToEnd({ ...deps, clock: later }, { client: tenant.client, transfer_id: transferId });
    expect(resumed.results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });

    // The dead invocation wakes up: it has lost the lease, so it writes nothing more.
    release(new Error('the process was killed'));
    expect(await dead).toMatchObject({ transfer_id: transferId, stopped: expect.stringContaining('taken over') });

    const folder = join(sftp.root, 'resume', transferId);
    const names = readdirSync(folder).sort();
    const extension = (recording: Recording) => (recording.type === 'Call' ? 'wav' : recording.type === 'Photo' ? 'jpg' : 'txt');
    expect(names).toEqual([...recordings.map((recording) => `${recording.reference}.${extension(recording)}.pgp`), 'manifest.csv.pgp', 'manifest.json.pgp'].sort());
    const transfer = await storedTransfer(deps, tenant.client, transferId);
    expect(transfer).toMatchObject({ transfer_state: 'Succeeded', files_total: 6, files_done: 6, invocations: 3 });
    const files = (await deps.table.query({ ...keys.transferFile.list(tenant.client, transferId), limit: 100 })).items.map(readTransferFile);
    // The file cut off mid-way was attempted twice; every other once. Each decrypts to the device's bytes.
    expect(files.map((file) => file.attempts).sort()).toEqual([1, 1, 1, 1, 1, 2]);
    const work = tempDir('xfer-resume');
    for (const recording of recordings) {
      const out = join(work, recording.reference);
      receiver.gpg(['--output', out, '--decrypt', join(folder, `${recording.reference}.${extension(recording)}.pgp`)]);
      expect(sha256sum(out)).toBe(recording.sha256);
    }
  }, 120_000);

  it('a recording that does not verify fails alone (PartialFail, TransferAlert); a re-run carries only it', async () => {
    await createConfig('partial', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call', 'Photo', 'SMS'],
      transfer_file_format: 'Uncompressed',
      params: sftpParams('/partial'),
      secured_data: { sftp_password: sftp.password },
    });
    // The sealed object of one call is changed after processing: its tag no longer verifies.
    const victim = recordings[0] as Recording;
    const rawKey = payloadObjectKey(tenant.client, victim.reference);
    const original = await deps.blobs.get('raw', rawKey);
    const chunks: Buffer[] = [];
    for await (const chunk of original!.body) chunks.push(chunk as Buffer);
    const sealed = Buffer.concat(chunks);
    const tampered = Buffer.from(sealed);
    tampered[100] = (tampered[100] as number) ^ 1;
    await deps.blobs.put('raw', rawKey, tampered);
    try {
      const transferId = await pendingTransfer(deps, tenant.client, 'partial');
      const { results } = await runToEnd(deps, { client: tenant.client, transfer_id: transferId, backoff_ms: 1 });
      expect(results.at(-1)).toMatchObject({ transfer_state: 'PartialFail' });
      const detail = await tenant.call('GET', `/transfers/${transferId}`, tenant.admin);
      expect(detail.body).toMatchObject({ transfer_state: 'PartialFail', files_total: 6, files_done: 5, files_failed: 1 });
      expect(String(detail.body.error_message)).toContain(`1 of 6 files could not be delivered (${victim.reference}: content: Authentication tag does not verify`);
      const failedFiles = await tenant.call('GET', `/transfers/${transferId}/files?file_state=Failed`, tenant.admin);
      expect(failedFiles.body.data).toEqual([expect.objectContaining({ payload_reference: victim.reference, file_state: 'Failed', attempts: 1 })]);
      expect(existsSync(join(sftp.root, 'partial', transferId, `${victim.reference}.wav`))).toBe(false);
      expect(readdirSync(join(sftp.root, 'partial', transferId)).filter((name) => name.endsWith('.partial'))).toEqual([]);
      // The manifest lists what arrived, and only that.
      const manifest = TransferManifest.parse(JSON.parse(readFileSync(join(sftp.root, 'partial', transferId, 'manifest.json'), 'utf8')));
      expect(manifest.files.map((file) => file.payload_reference)).not.toContain(victim.reference);
      expect(manifest.files).toHaveLength(3);

      const alert = await transferAlert(transferId);
      expect(alert).toMatchObject({ alert_type: 'TransferAlert', alert_scope: 'ops', alert_severity: 'Medium' });

      // Put right, a re-run is a new transfer of the same window carrying only the file that failed.
      await deps.blobs.put('raw', rawKey, sealed);
      const rerun = await tenant.call('POST', `/transfers/${transferId}/run`, tenant.admin);
      expect(rerun.status, JSON.stringify(rerun.body)).toBe(202);
      expect(rerun.body.transfer_id).not.toBe(transferId);
      const again = await settled(String(rerun.body.transfer_id));
      expect(again).toMatchObject({ transfer_state: 'Succeeded', rerun_of: transferId, payload_count: 1, files_total: 3, report_to: detail.body.report_to });
      expect(readdirSync(join(sftp.root, 'partial', String(rerun.body.transfer_id))).sort()).toEqual([`${victim.reference}.wav`, 'manifest.csv', 'manifest.json']);
      expect(sha256sum(join(sftp.root, 'partial', String(rerun.body.transfer_id), `${victim.reference}.wav`))).toBe(victim.sha256);
      // The first stays as it was, as evidence.
      expect((await tenant.call('GET', `/transfers/${transferId}`, tenant.admin)).body.transfer_state).toBe('PartialFail');
    } finally {
      await deps.blobs.put('raw', rawKey, sealed);
    }
  }, 120_000);

  it('retries a refused write with backoff, and an arrival it could not record goes again under a new name', async () => {
    await createConfig('retries', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Photo', 'SMS'],
      transfer_file_format: 'Uncompressed',
      params: sftpParams('/retries'),
      secured_data: { sftp_password: sftp.password },
    });
    const photo = recordings.find((recording) => recording.type === 'Photo') as Recording;
    const sms = recordings.find((recording) => recording.type === 'SMS') as Recording;
    // The SMS's first write is refused (retryable); the photo's first record cannot be written after it arrived.
    let refused = false;
    const flaky: DestinationOpener = (config, secrets) =>
      openDestination({ config: deps.config, logger: deps.logger }, config, secrets).then((real) => ({
        exists: (path) => real.exists(path),
        close: () => real.close(),
        put: async (path, body) => {
          if (!refused && path.endsWith('.txt')) {
            refused = true;
            throw new DeliveryError('connection reset by peer', { retryable: true });
          }
          return real.put(path, body);
        },
      }));
    let recordLost = false;
    const table = deps.table;
    const losingTable: typeof table = {
      get: (key, options) => table.get(key, options),
      put: (item, options) => table.put(item, options),
      update: (key, update, options) => table.update(key, update, options),
      delete: (key, options) => table.delete(key, options),
      query: (query) => table.query(query),
      batchGet: (keyList) => table.batchGet(keyList),
      transactWrite: async (operations) => {
        const deliveredPhoto = operations.some((operation) => operation.kind === 'put' && operation.item.file_state === 'Delivered' && operation.item.payload_reference === photo.reference);
        if (deliveredPhoto && !recordLost) {
          recordLost = true;
          throw new Error('the table did not answer');
        }
        return table.transactWrite(operations);
      },
    };
    const transfersOfPhoto = async () =>
      (await deps.table.query({ partition: keys.payload.key(tenant.client, photo.reference).pk, sort: { beginsWith: keys.payload.auditPrefix } })).items.filter(
        (item) => item.action === 'transfer',
      ).length;
    const before = await transfersOfPhoto();
    const transferId = await pendingTransfer(deps, tenant.client, 'retries');
    // One file at a time, so the lost transaction holds the photo's record alone (files delivered at once share theirs).
    const { results } = await runToEnd({ ...deps, table: losingTable }, { client: tenant.client, transfer_id: transferId, backoff_ms: 5, files_at_once: 1 }, { openDestination: flaky });
    expect(results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });
    expect(refused && recordLost).toBe(true);

    const files = (await deps.table.query({ ...keys.transferFile.list(tenant.client, transferId, '1'), limit: 10 })).items.map(readTransferFile);
    const smsFile = files.find((file) => file.payload_reference === sms.reference);
    const photoFile = files.find((file) => file.payload_reference === photo.reference);
    expect(smsFile).toMatchObject({ file_state: 'Delivered', attempts: 2, dest_path: `/retries/${transferId}/${sms.reference}.txt` });
    expect(smsFile?.last_error).toBeUndefined();
    expect(photoFile).toMatchObject({
      file_state: 'Delivered',
      attempts: 2,
      dest_path: `/retries/${transferId}/again-2-1/${photo.reference}.jpg`,
      unrecorded_arrivals: [`${transferId}/${photo.reference}.jpg`],
    });
    // The first arrival stays as it was; the manifest names the recorded one; the payload's audit holds one transfer.
    const folder = join(sftp.root, 'retries', transferId);
    expect(sha256sum(join(folder, `${photo.reference}.jpg`))).toBe(photo.sha256);
    expect(sha256sum(join(folder, 'again-2-1', `${photo.reference}.jpg`))).toBe(photo.sha256);
    const manifest = TransferManifest.parse(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')));
    expect(manifest.files.find((file) => file.payload_reference === photo.reference)?.dest_path).toBe(photoFile?.dest_path);
    expect((await transfersOfPhoto()) - before).toBe(1);
  }, 60_000);

  it('an arrival staged before its rename, whose record was lost, is recorded from the staging and never sent again', async () => {
    await createConfig('staged', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Photo'],
      transfer_file_format: 'Uncompressed',
      params: sftpParams('/staged'),
      secured_data: { sftp_password: sftp.password },
    });
    const photo = recordings.find((recording) => recording.type === 'Photo') as Recording;
    // The photo arrives (staged, then renamed into place) and its record is lost, as when the run is killed right then.
    let recordLost = false;
    let puts = 0;
    const counting: DestinationOpener = (config, secrets) =>
      openDestination({ config: deps.config, logger: deps.logger }, config, secrets).then((real) => ({
        exists: (path) => real.exists(path),
        close: () => real.close(),
        put: async (path, body, options) => {
          puts += 1;
          return real.put(path, body, options);
        },
      }));
    const table = deps.table;
    const losingTable: typeof table = {
      get: (key, options) => table.get(key, options),
      put: (item, options) => table.put(item, options),
      update: (key, update, options) => table.update(key, update, options),
      delete: (key, options) => table.delete(key, options),
      query: (query) => table.query(query),
      batchGet: (keyList) => table.batchGet(keyList),
      transactWrite: async (operations) => {
        const deliveredPhoto = operations.some((operation) => operation.kind === 'put' && operation.item.file_state === 'Delivered' && operation.item.payload_reference === photo.reference);
        if (deliveredPhoto && !recordLost) {
          recordLost = true;
          throw new Error('the table did not answer');
        }
        return table.transactWrite(operations);
      },
    };
    const transferId = await pendingTransfer(deps, tenant.client, 'staged');
    const { results } = await runToEnd({ ...deps, table: losingTable }, { client: tenant.client, transfer_id: transferId, backoff_ms: 5 }, { openDestination: counting });
    expect(results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });
    expect(recordLost).toBe(true);

    const [photoFile] = (await deps.table.query({ ...keys.transferFile.list(tenant.client, transferId, '1'), limit: 10 })).items.map(readTransferFile);
    expect(photoFile).toMatchObject({ file_state: 'Delivered', attempts: 2, dest_path: `/staged/${transferId}/${photo.reference}.jpg` });
    expect(photoFile?.unrecorded_arrivals).toBeUndefined();
    expect(photoFile?.staged).toBeUndefined();
    expect(photoFile?.checksums.delivered_sha256).toBe(photo.sha256);
    // Sent once (and the two manifests): the second attempt found its own staged arrival and only recorded it.
    expect(puts).toBe(3);
    expect(readdirSync(join(sftp.root, 'staged', transferId)).sort()).toEqual([`${photo.reference}.jpg`, 'manifest.csv', 'manifest.json'].sort());
  }, 60_000);

  it('a destination that refuses the login fails the transfer whole, with the reason and a High TransferAlert', async () => {
    await createConfig('wrong-password', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['SMS'],
      transfer_file_format: 'Zipped',
      params: sftpParams('/refused'),
      secured_data: { sftp_password: 'not-the-password' },
    });
    const transferId = await pendingTransfer(deps, tenant.client, 'wrong-password');
    const { results } = await runToEnd(deps, { client: tenant.client, transfer_id: transferId, backoff_ms: 1 });
    expect(results.at(-1)).toMatchObject({ transfer_state: 'Failed' });
    const transfer = await storedTransfer(deps, tenant.client, transferId);
    expect(transfer.transfer_state).toBe('Failed');
    expect(transfer.error_message).toMatch(/^The destination could not be opened: /);
    expect(transfer.files_done ?? 0).toBe(0);
    expect(existsSync(join(sftp.root, 'refused'))).toBe(false);
    expect(await transferAlert(transferId)).toMatchObject({ alert_type: 'TransferAlert', alert_severity: 'High', alert_state: 'Triggered' });
    // Running it again is a new transfer (the configuration may have been put right meanwhile).
    mkdirSync(join(sftp.root, 'refused'), { recursive: true });
  }, 60_000);

  it('a transfer whose configuration was deleted before the job ran ends Failed, saying so, with a High TransferAlert', async () => {
    await createConfig('deleted-before-run', {
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['SMS'],
      transfer_file_format: 'Zipped',
      params: sftpParams('/deleted-before-run'),
      secured_data: { sftp_password: sftp.password },
    });
    const transferId = await pendingTransfer(deps, tenant.client, 'deleted-before-run');
    const deleted = await tenant.call('DELETE', '/transfer_configs/deleted-before-run', tenant.admin);
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(300);

    const { invocations, results } = await runToEnd(deps, { client: tenant.client, transfer_id: transferId });
    expect(invocations).toBe(1);
    expect(results[0]).toEqual({ transfer_id: transferId, transfer_state: 'Failed' });
    const transfer = await storedTransfer(deps, tenant.client, transferId);
    expect(transfer).toMatchObject({ transfer_state: 'Failed', error_message: CONFIG_DELETED });
    expect(transfer.completed_at).toBeDefined();
    expect(transfer.lease_id).toBeUndefined();
    // Nothing chosen, nothing delivered, and no running-job marker left for the job-sweep to resume.
    expect((await deps.table.query({ ...keys.transferFile.list(tenant.client, transferId), limit: 10 })).items).toEqual([]);
    expect(existsSync(join(sftp.root, 'deleted-before-run'))).toBe(false);
    expect(await deps.table.get(keys.runningJob.key(tenant.client, 'transfer', transferId), { consistent: true })).toBeUndefined();
    expect(await transferAlert(transferId)).toMatchObject({ alert_type: 'TransferAlert', alert_severity: 'High', alert_state: 'Triggered' });
  }, 60_000);
});
