import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Dependencies } from '#core/dependencies.ts';
import type { UserActivityEntry } from '#core/http/activity.ts';
import type { TransactOperation } from '#core/ports/table-store.ts';
import { displayNamesOf, type DisplayNames } from '#core/store/display-names.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { payloadAuditToItem } from '#core/store/entities/payload-audit.ts';
import { productionKeys, productionToItem, readProduction, type ProductionItem } from '#core/store/entities/production.ts';
import { readTransferConfig, type TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { MESSAGE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { writeActivityRecordWith } from '../../audit/public.ts';
import { custodianLedgerEntries } from '../../completeness/public.ts';
import { openPayloadMeta } from '../../device-crypto/public.ts';
import { endMarkerOperation, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';
import {
  DeliveryError,
  openDestination,
  openSecret,
  openStoredRecording,
  packageTransfer,
  parsePgpPublicKey,
  type Destination,
  type PackagedOutput,
  type PackagingOptions,
} from '../../transfers/public.ts';
import { controlNumber, reserveControlBlock } from './control-numbers.ts';
import { messageEml, type Party } from './eml.ts';
import { concordanceDat, edrmXml, type ProducedDocument } from './load-files.ts';
import type { ProductionFolder, WrittenFile } from './production-files.ts';
import { moveFile, openPart, partArchiveName, partBoundsOf, partIsFull, PRODUCTION_MANIFEST, productionManifest, type DeliveredPart, type OpenPart } from './production-parts.ts';
import { MANIFEST_JSON, MANIFEST_SHA256, manifestJson, sha256List, type DocumentCustody } from './production-manifest.ts';
import { PRODUCTION_JOB } from './production-job-name.ts';
import { selectRecordings } from './selection.ts';

/** Who the records the job writes name (its name: ./production-job-name.ts). */
export const PRODUCTION_ACTOR = 'job:production';

/** The production's file names: natives by control number, the load files and the ledger under DATA/. */
export const PRODUCTION_PATHS = {
  natives: 'NATIVES',
  edrm: 'DATA/loadfile.xml',
  dat: 'DATA/loadfile.dat',
  ledger: 'DATA/capture-ledger.jsonl',
} as const;

/** Documents written between two progress writes (and lease renewals). */
const PROGRESS_BATCH = 25;

export type ProductionJobDependencies = Pick<Dependencies, 'table' | 'blobs' | 'keys' | 'clock' | 'jobs' | 'logger' | 'config'>;

export interface ProductionJobOptions {
  /** Opens a transfer configuration's target (default: the transfers' delivery module). */
  openDestination?: (config: TransferConfigItem, secrets: { sftpPassword?: string }) => Promise<Destination>;
}

/** A production that cannot be completed as asked: it ends Failed with this message (and the failing documents). */
class ProductionFailedError extends Error {
  override readonly name = 'ProductionFailedError';
}

const MESSAGE_TYPES = new Set<string>(MESSAGE_PAYLOAD_TYPES);

/**
 * The `production` job: collects the production's records, verifies each stored recording against the device's
 * SHA-256 as it is read, writes its native (recordings as stored, messages as `.eml`) under its control number, the
 * EDRM XML and Concordance DAT load files, the custodians' capture-ledger entries and the manifest, then packages and
 * delivers them (a transfer configuration's S3 or SFTP target with its zip, 7z password and PGP, or the processed
 * bucket for a download link). Its end (Succeeded or Failed, with the documents that failed) is written with the
 * job's activity record and the removal of its running marker in one transaction: nothing is recorded best-effort.
 * A run that dies is resumed by the job sweep and starts again from the selection with the same control numbers.
 */
export async function productionJob(deps: ProductionJobDependencies, input: Record<string, unknown>, options: ProductionJobOptions = {}): Promise<Record<string, unknown>> {
  const client = ClientId.safeParse(input.client);
  if (!client.success) throw new Error(`client: ${client.error.issues[0]?.message ?? 'invalid'}`);
  const reference = typeof input.production_reference === 'string' ? input.production_reference : '';
  const stored = await deps.table.get(productionKeys.key(client.data, reference), { consistent: true });
  if (stored === undefined) return { skipped: 'no such production' };
  let production = readProduction(stored);
  if (production.production_state !== 'Pending' && production.production_state !== 'InProgress') return { skipped: `the production is ${production.production_state}` };
  const tracked: TrackedJob = { client: client.data, kind: 'production', id: reference, job: PRODUCTION_JOB, input: { client: client.data, production_reference: reference } };
  const now = deps.clock.now().toISOString();
  // A resumed run writes and delivers every part again: what an earlier run delivered is named again as it goes.
  const { download_key: _key, download_name: _name, ...restarted } = production;
  production = { ...restarted, production_state: 'InProgress', started_at: production.started_at ?? now, documents_done: 0, failures: [], delivered_files: [] };
  await deps.table.put(productionToItem(production));
  const work = mkdtempSync(join(tmpdir(), 'verity-production-'));
  try {
    const done = await produce(deps, production, tracked, work, options);
    await end(deps, done, tracked);
    return { production_reference: reference, production_state: done.production_state, documents: done.documents_done };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.warn('production failed', { client: client.data, production_reference: reference, reason: message });
    const latest = readProduction((await deps.table.get(productionKeys.key(client.data, reference), { consistent: true })) ?? productionToItem(production));
    const failed: ProductionItem = { ...latest, production_state: 'Failed', error_message: message.slice(0, 2000), completed_at: deps.clock.now().toISOString() };
    await end(deps, failed, tracked);
    return { production_reference: reference, production_state: 'Failed', error_message: failed.error_message };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function produce(
  deps: ProductionJobDependencies,
  start: ProductionItem,
  tracked: TrackedJob,
  work: string,
  options: ProductionJobOptions,
): Promise<ProductionItem> {
  const recordings = await selectRecordings(deps, start);
  if (recordings.length === 0) throw new ProductionFailedError('No records match the production');
  let production = await withControlBlock(deps, start, recordings.length);
  const first = production.control_first_number ?? 1;
  const names = await displayNamesOf(deps, production.client, {
    deviceUsers: recordings.map((payload) => payload.device_user_reference),
    devices: recordings.map((payload) => payload.device_reference),
  });
  const bounds = partBoundsOf(deps.config);
  const delivered: DeliveredPart[] = [];
  const failures: ProductionItem['failures'] = [];
  const closing = { deps, work, options, delivered, failures, total: recordings.length };
  let part = openPart(work, 1);
  // The documents written since the last progress write: their payload audit records go in that write.
  let unaudited: ProducedDocument[] = [];
  for (const [index, payload] of recordings.entries()) {
    if (partIsFull(part, bounds)) {
      production = await closePart(closing, production, part, false);
      part = openPart(work, part.index + 1);
    }
    const docId = controlNumber(production.control_prefix, first + index);
    try {
      const written = await writeNative(deps, production.client, part.folder, docId, payload, names);
      if (partIsFull(part, bounds, written.document.nativeSize)) {
        // This document would pass the part's bytes: the part is delivered without it, and it opens the next.
        const next = openPart(work, part.index + 1);
        moveFile(part.folder, next.folder, written.document.nativePath);
        production = await closePart(closing, production, part, false);
        part = next;
      }
      part.documents.push(written.document);
      part.bytes += written.document.nativeSize;
      part.custody.push({ ...written.custody, verified_at: deps.clock.now().toISOString() });
      unaudited.push(written.document);
    } catch (error) {
      failures.push({ payload_reference: payload.payload_reference, reason: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
    }
    if ((index + 1) % PROGRESS_BATCH === 0 || index === recordings.length - 1) {
      production = await progress(deps, production, tracked, index + 1, failures, unaudited);
      unaudited = [];
    }
  }
  production = await closePart(closing, production, part, true);
  return { ...production, production_state: 'Succeeded', completed_at: deps.clock.now().toISOString() };
}

interface PartClosing {
  deps: ProductionJobDependencies;
  work: string;
  options: ProductionJobOptions;
  /** The parts delivered so far (the production's manifest names them all). */
  delivered: DeliveredPart[];
  failures: ProductionItem['failures'];
  total: number;
}

/**
 * Completes one part and delivers it: its load files, (in the last part) the custodians' capture ledger and the
 * production's manifest, its own manifest of every file in it, then its archive, delivered before the next part is
 * written (its folder is removed, so the temporary storage holds one part at a time). A document that failed stops the
 * production before this part is delivered; parts delivered before stay named on the production.
 */
async function closePart(closing: PartClosing, production: ProductionItem, part: OpenPart, last: boolean): Promise<ProductionItem> {
  const { deps, failures, delivered } = closing;
  if (failures.length > 0) {
    const sent = delivered.length === 0 ? 'nothing was delivered' : `parts 1 to ${delivered.length} were delivered before it (${delivered.map((done) => done.archive).join(', ')})`;
    throw new ProductionFailedError(`${failures.length} of ${closing.total} documents could not be produced (${sent}): ${failures.map((failure) => `${failure.payload_reference} (${failure.reason})`).join('; ')}`.slice(0, 2000));
  }
  const { folder, documents } = part;
  folder.writeBytes(PRODUCTION_PATHS.edrm, edrmXml(production.production_reference, documents));
  folder.writeBytes(PRODUCTION_PATHS.dat, concordanceDat(documents));
  if (last) await writeLedger(deps, production, folder);
  const only = last && part.index === 1;
  const archive = partArchiveName(production.production_reference, part.index, only);
  const own: DeliveredPart = { index: part.index, archive, files: [], first: documents[0]?.docId, last: documents.at(-1)?.docId };
  if (last && !only) folder.writeBytes(PRODUCTION_MANIFEST, productionManifest(production.production_reference, deps.clock.now().toISOString(), [...delivered, { ...own, files: [...folder.files] }]));
  const listed = [...folder.files];
  folder.writeBytes(MANIFEST_SHA256, sha256List(listed));
  folder.writeBytes(MANIFEST_JSON, manifestJson(production, deps.clock.now().toISOString(), listed, part.custody, only ? undefined : { part: part.index, archive }));
  const sent = await deliver(deps, production, folder, archive, closing.work, closing.options);
  delivered.push({ ...own, files: [...folder.files] });
  rmSync(folder.root, { recursive: true, force: true });
  const deliveredFiles = [...(production.delivered_files ?? []), ...sent.names];
  const changes: Partial<ProductionItem> = { delivered_files: deliveredFiles, ...(production.download_key === undefined && sent.downloadKey !== undefined ? { download_key: sent.downloadKey, download_name: archive } : {}) };
  // What is delivered is named on the production at once: a later part that fails leaves the earlier ones listed.
  await deps.table.update(productionKeys.key(production.client, production.production_reference), { set: changes });
  return { ...production, ...changes };
}

/**
 * The production's control numbers: reserved once (the case's counter moves by the block in one atomic ADD) and kept
 * on the production, so a resumed run gives each document the number it had. A resumed run that finds a different
 * number of records (some disposed of meanwhile) fails rather than renumber.
 */
async function withControlBlock(deps: ProductionJobDependencies, production: ProductionItem, count: number): Promise<ProductionItem> {
  if (production.control_first_number !== undefined) {
    const reserved = (production.control_last_number ?? 0) - production.control_first_number + 1;
    if (reserved !== count) throw new ProductionFailedError(`The production's records changed since its control numbers were given (${reserved} then, ${count} now)`);
    return production;
  }
  const first = await reserveControlBlock(deps, production.client, production.case_reference, count);
  const last = first + count - 1;
  const block = {
    documents_total: count,
    control_first_number: first,
    control_last_number: last,
    control_first: controlNumber(production.control_prefix, first),
    control_last: controlNumber(production.control_prefix, last),
  };
  await deps.table.update(productionKeys.key(production.client, production.production_reference), { set: block });
  return { ...production, ...block };
}

/**
 * The payload audit record of one document written into the production (action `production`, by whoever asked for
 * it). Keyed by the production (its creation time and reference) and the control number, not by the time written, so
 * a resumed run, which writes every document again, rewrites the same record: one per recording and production.
 */
function productionAudit(production: ProductionItem, document: ProducedDocument, now: string): TransactOperation {
  const keyed = payloadAuditToItem(
    production.client,
    {
      payload_reference: document.payloadReference,
      action: 'production',
      portal_user: production.created_by,
      ...(production.created_by_actor === undefined ? {} : { actor: production.created_by_actor }),
      time: production.created_at,
    },
    `${production.production_reference}-${document.docId}`,
  );
  return { kind: 'put', item: { ...keyed, time: now, production_reference: production.production_reference, control_number: document.docId } };
}

/**
 * Progress: the documents done and failed so far, with the payload audit records of the documents written since the
 * last progress, in one transaction (at most PROGRESS_BATCH records and the production): a document is counted done
 * if and only if its recording's audit says it was produced.
 */
async function progress(deps: ProductionJobDependencies, production: ProductionItem, tracked: TrackedJob, done: number, failures: ProductionItem['failures'], written: readonly ProducedDocument[]): Promise<ProductionItem> {
  const now = deps.clock.now().toISOString();
  await deps.table.transactWrite([
    { kind: 'update', key: productionKeys.key(production.client, production.production_reference), update: { set: { documents_done: done, failures: failures.slice(0, 100) } } },
    ...written.map((document) => productionAudit(production, document, now)),
  ]);
  await renewTrackedJob(deps, tracked);
  return { ...production, documents_done: done, failures: failures.slice(0, 100) };
}

interface WrittenNative {
  document: ProducedDocument;
  custody: Omit<DocumentCustody, 'verified_at'>;
}

/** One document's native: the recording as stored, or the message as `.eml`; read through the checks of the source. */
async function writeNative(deps: ProductionJobDependencies, client: string, folder: ProductionFolder, docId: string, payload: PayloadItem, names: DisplayNames): Promise<WrittenNative> {
  const deviceSha256 = (payload.checksum ?? '').toLowerCase();
  if (deviceSha256 === '') throw new Error('the recording has no device SHA-256 to verify it against');
  const recording = await openStoredRecording(deps, client, payload);
  const facts = await partiesOf(deps, client, payload, names);
  let written: WrittenFile;
  let mimeType: string;
  if (MESSAGE_TYPES.has(payload.payload_type)) {
    const content = await collect(recording.body);
    const eml = messageEml({
      controlNumber: docId,
      payloadReference: payload.payload_reference,
      payloadType: payload.payload_type as 'SMS' | 'RCS' | 'MMS',
      from: facts.from,
      to: facts.to,
      sentAt: new Date(payload.payload_time ?? payload.processed_at ?? 0),
      threadId: payload.thread_id,
      content,
      extension: recording.extension,
    });
    written = folder.writeBytes(`${PRODUCTION_PATHS.natives}/${docId}.eml`, eml);
    mimeType = 'message/rfc822';
  } else {
    written = await folder.writeStream(`${PRODUCTION_PATHS.natives}/${docId}.${recording.extension}`, recording.body);
    // The source checked the device's SHA-256 as the stream ended; this is the same check on what reached the disk.
    if (written.sha256 !== deviceSha256) throw new Error(`read as SHA-256 ${written.sha256}, but the device sealed ${deviceSha256}`);
    mimeType = MIME_TYPES[recording.extension] ?? 'application/octet-stream';
  }
  const sourcePath = payload.s3_path ?? payloadObjectKey(client, payload.payload_reference);
  return {
    document: {
      docId,
      payloadReference: payload.payload_reference,
      payloadType: payload.payload_type,
      from: partyLabel(facts.from),
      to: partyLabel(facts.to),
      date: payload.payload_time ?? '',
      duration: payload.payload_duration,
      direction: facts.direction,
      custodian: names.userName(payload.device_user_reference) ?? payload.device_user_reference ?? '',
      thread: payload.thread_id,
      nativePath: written.path,
      nativeSize: written.size,
      nativeSha256: written.sha256,
      deviceSha256,
      mimeType,
    },
    custody: {
      doc_id: docId,
      payload_reference: payload.payload_reference,
      payload_type: payload.payload_type,
      native_path: written.path,
      native_sha256: written.sha256,
      device_sha256: deviceSha256,
      source_path: sourcePath,
      recorded_at: payload.payload_time,
      uploaded_at: payload.uploaded_at,
      processed_at: payload.processed_at,
    },
  };
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  amr: 'audio/amr',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  png: 'image/png',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
  txt: 'text/plain',
};

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

const partyLabel = (party: Party) => (party.name === undefined ? party.number : `${party.name} <${party.number}>`);

/**
 * Who spoke or wrote to whom: the custodian's phone and the counterparty, in the direction the recording's sealed meta
 * gives (`I` inbound: the counterparty is the sender). A meta that does not open leaves the direction unsaid.
 */
async function partiesOf(deps: ProductionJobDependencies, client: string, payload: PayloadItem, names: DisplayNames): Promise<{ from: Party; to: Party; direction: string }> {
  let direction: string | undefined;
  try {
    const meta = (await openPayloadMeta(deps, client, payload)) as { direction?: unknown; second_parties?: Array<{ direction?: unknown }> };
    const raw = meta.direction ?? meta.second_parties?.[0]?.direction;
    direction = raw === 'I' ? 'Inbound' : raw === 'O' ? 'Outbound' : undefined;
  } catch {
    direction = undefined;
  }
  const custodian: Party = {
    number: names.devicePhoneNumber(payload.device_reference) ?? payload.device_reference,
    name: names.userName(payload.device_user_reference) ?? payload.device_user_reference,
  };
  const counterparty: Party = { number: (payload.second_party_numbers ?? '').split(',').filter(Boolean).join(', ') || 'unknown' };
  return direction === 'Inbound' ? { from: counterparty, to: custodian, direction } : { from: custodian, to: counterparty, direction: direction ?? '' };
}

/** The custodians' capture-ledger entries in the period, as JSON Lines (the evidence of what each phone saw). */
async function writeLedger(deps: ProductionJobDependencies, production: ProductionItem, folder: ProductionFolder): Promise<void> {
  const lines: string[] = [];
  for (const custodian of production.criteria.custodians ?? []) {
    for await (const entry of custodianLedgerEntries(deps, production.client, custodian, production.criteria)) lines.push(`${JSON.stringify(entry)}\n`);
  }
  folder.writeBytes(PRODUCTION_PATHS.ledger, lines.join(''));
}

/** The production's files in order, as the packager takes them. */
function entriesOf(folder: ProductionFolder, modifiedAt: Date) {
  return folder.files.map((file) => ({ name: file.path, size: file.size, modifiedAt, open: () => createReadStream(folder.local(file.path)) }));
}

async function deliver(
  deps: ProductionJobDependencies,
  production: ProductionItem,
  folder: ProductionFolder,
  archiveName: string,
  work: string,
  options: ProductionJobOptions,
): Promise<{ names: string[]; downloadKey?: string }> {
  const entries = entriesOf(folder, deps.clock.now());
  if (production.destination.type === 'Download') {
    const packaging = await packageTransfer(entries, { format: 'Zipped', archiveName });
    const keyOf = (name: string) => `productions/${production.client}/${production.production_reference}/${name}`;
    const names: string[] = [];
    for await (const output of packaging.outputs) {
      // Storage needs the length up front: the archive is written to the local disk first, then stored.
      const local = join(work, output.name);
      await pipelineToFile(output, local);
      await output.digest;
      await deps.blobs.put('processed', keyOf(output.name), createReadStream(local), { contentLength: statSync(local).size, contentType: 'application/zip' });
      // Stored: its local copy goes, so the temporary storage holds one part (and its archive) at a time.
      rmSync(local, { force: true });
      names.push(output.name);
    }
    return { names, downloadKey: keyOf(archiveName) };
  }
  const configItem = await deps.table.get(keys.transferConfig.key(production.client, production.destination.transfer_config_reference), { consistent: true });
  if (configItem === undefined) throw new ProductionFailedError(`destination.transfer_config_reference: ${production.destination.transfer_config_reference} no longer exists`);
  const config = readTransferConfig(configItem);
  const place = (field: 'zip_password' | 'sftp_password') => ({ client: production.client, configReference: config.transfer_config_reference, field });
  const packagingOptions: PackagingOptions = { format: config.transfer_file_format, archiveName };
  if (config.transfer_file_format === 'ZippedWithPassword') {
    if (config.sealed_zip_password === undefined) throw new ProductionFailedError('secured_data.zip_password: not set');
    packagingOptions.zipPassword = await openSecret(deps, place('zip_password'), config.sealed_zip_password);
  }
  if (config.pgp_key !== undefined) {
    await parsePgpPublicKey(config.pgp_key);
    packagingOptions.pgpPublicKey = config.pgp_key;
  }
  const secrets: { sftpPassword?: string } = {};
  if (config.target_type === 'SFTP' && config.sealed_sftp_password !== undefined) secrets.sftpPassword = await openSecret(deps, place('sftp_password'), config.sealed_sftp_password);
  const open = options.openDestination ?? ((target, opened) => openDestination({ config: deps.config, logger: deps.logger }, target, opened));
  const destination = await open(config, secrets);
  const names: string[] = [];
  try {
    const packaging = await packageTransfer(entries, packagingOptions);
    for await (const output of packaging.outputs) {
      const path = `${production.production_reference}/${output.name}`;
      const arrived = await destination.put(path, output.stream);
      const digest = await output.digest;
      if (arrived.sha256 !== digest.sha256 || arrived.bytes !== digest.size) {
        throw new DeliveryError(`${path}: arrived as ${arrived.bytes} bytes with SHA-256 ${arrived.sha256}, but ${digest.size} bytes with SHA-256 ${digest.sha256} were sent`, { retryable: false });
      }
      names.push(path);
    }
  } finally {
    await destination.close();
  }
  return { names };
}

async function pipelineToFile(output: PackagedOutput, path: string): Promise<void> {
  await pipeline(Readable.fromWeb(output.stream as NodeReadableStream<Uint8Array>), createWriteStream(path));
}

/**
 * The production's end, its activity record and the removal of its running marker, in one transaction: the log shows a
 * production ended if and only if the trail records it.
 */
async function end(deps: Pick<Dependencies, 'table' | 'clock'>, production: ProductionItem, tracked: TrackedJob): Promise<void> {
  const now = deps.clock.now().toISOString();
  const entry: UserActivityEntry = {
    user_id: PRODUCTION_ACTOR,
    roles: [],
    action: 'productions:Produce',
    is_allowed: production.production_state === 'Succeeded',
    activity_time: now,
    parameters: {
      production_reference: production.production_reference,
      ...(production.case_reference === undefined ? {} : { case_reference: production.case_reference }),
      production_state: production.production_state,
      documents: production.documents_done,
      ...(production.control_first === undefined ? {} : { control_first: production.control_first, control_last: production.control_last }),
      destination: production.destination.type === 'Download' ? 'Download' : production.destination.transfer_config_reference,
    },
    is_client_app: false,
  };
  const operations: TransactOperation[] = [
    { kind: 'put', item: productionToItem(production) },
    endMarkerOperation(tracked.client, tracked.kind, tracked.id),
  ];
  await writeActivityRecordWith(deps, { trail: 'user', client: production.client, entry, requestId: `${PRODUCTION_JOB}:${production.production_reference}` }, async () => operations);
}

/**
 * Ends a production whose runs keep dying (the job sweep gives up on it): Failed with the reason, its marker removed
 * and its activity record written, as any end. False when it had ended already.
 */
export async function endStuckProduction(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, reference: string, reason: string): Promise<boolean> {
  const stored = await deps.table.get(productionKeys.key(client, reference), { consistent: true });
  if (stored === undefined) return false;
  const production = readProduction(stored);
  if (production.production_state !== 'Pending' && production.production_state !== 'InProgress') return false;
  const sent = production.delivered_files ?? [];
  const delivered = sent.length === 0 ? 'nothing was delivered' : `only ${sent.join(', ')} were delivered`;
  const failed: ProductionItem = { ...production, production_state: 'Failed', error_message: `${reason}; ${delivered}`, completed_at: deps.clock.now().toISOString() };
  await end(deps, failed, { client, kind: 'production', id: reference, job: PRODUCTION_JOB, input: { client, production_reference: reference } });
  return true;
}
