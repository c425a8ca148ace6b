import { createHash } from 'node:crypto';
import type { Dependencies } from '../../core/dependencies.ts';
import type { TableItem } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { eachPage } from '../../core/store/paging.ts';
import { claimedAuditCheckpoint, claimedAuditLink, readAuditRecordMarks, type AuditCheckpointItem } from '../../core/store/entities/audit-chain.ts';
import { contentOf } from '../trail/activity-chain.ts';
import { isDisposed } from '../trail/disposed-records.ts';
import { tarFile } from './tar-file.ts';

/**
 * One activity trail's records of a period as ONE verifiable file (docs/audit-export.md): a ustar archive holding
 *
 * - `trail.jsonl`: one line per link in chain order, from the first record of the period to the signed checkpoint
 *   that covers its last (records past the period up to that checkpoint are included, `in_period: false`, so the chain
 *   reaches a signed point); each line carries the link (its hash and `previous_hash`: the chain fields) and the
 *   record's content, whose SHA-256 over canonical JSON is the link's `entry_hash`;
 * - `checkpoints.jsonl`: the signed checkpoints that fall within those links, each with its signature and key id;
 * - `export.json`: what was exported (tenant, trail, period, sequences, counts, key id);
 * - `manifest.sha256`: the SHA-256 of those three files, in `sha256sum -c` format;
 * - `manifest.sig`: the signing key's detached signature of `manifest.sha256` (ECDSA P-256 over SHA-256, DER:
 *   `openssl dgst -sha256 -verify`), by the key that signs the checkpoints;
 * - `public-key.pem`: that key's public half, for convenience: a firm verifies against the key it obtained from
 *   Verity itself (GET activities/signing-key), not against the copy inside the file.
 */

export const EXPORT_FORMAT = 'verity-activity-export/1';
export const EXPORT_MEMBERS = {
  trail: 'trail.jsonl',
  checkpoints: 'checkpoints.jsonl',
  description: 'export.json',
  manifest: 'manifest.sha256',
  signature: 'manifest.sig',
  publicKey: 'public-key.pem',
} as const;
/** What openssl verifies the manifest's signature as. */
export const MANIFEST_SIGNING_ALGORITHM = 'ECDSA_SHA_256';

export interface ExportRequest {
  client: string;
  trail: ActivityTrail;
  /** ISO bounds: records from `from` (inclusive) to `to` (exclusive), by their activity time. */
  from: string;
  to: string;
}

/** One line of trail.jsonl. */
export interface ExportedRecord {
  sequence: number;
  in_period: boolean;
  link: { chain_version: number; client: string; trail: ActivityTrail; sequence: number; previous_hash: string; entry_hash: string; record: string; hash: string };
  /** The record's hashed content; null for a record retention disposed of (its stub says how, under `disposed`). */
  record: Record<string, unknown> | null;
  disposed?: { retention_state?: string; disposal_id?: string };
}

export interface ExportDescription {
  format: typeof EXPORT_FORMAT;
  client: string;
  trail: ActivityTrail;
  from: string;
  to: string;
  exported_at: string;
  /** The links in trail.jsonl (0 when the period has no linked record). */
  first_sequence: number;
  last_sequence: number;
  records: number;
  records_in_period: number;
  /** Records of the period not yet linked into the chain (the sequencer links within minutes): not in the file. */
  unlinked_in_period: number;
  /** The sequence of the signed checkpoint the file reaches, or null when none covers the period's last record yet. */
  covered_to: number | null;
  key_id: string;
  signature_algorithm: typeof MANIFEST_SIGNING_ALGORITHM;
}

export interface ExportDependencies {
  deps: Pick<Dependencies, 'table' | 'keys' | 'clock'>;
  signingKeyId: string;
  publicKeyPem: string;
  /** Called after each page of links: records written so far, of the estimate. */
  onProgress?: (written: number, total: number) => Promise<void>;
}

const PAGE_SIZE = 100;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const lines = (values: readonly unknown[]) => Buffer.from(values.map((value) => `${JSON.stringify(value)}\n`).join(''), 'utf8');

/** The sequences of the period's linked records, and how many of its records wait to be linked. */
async function periodSpan(table: Dependencies['table'], request: ExportRequest) {
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  let unlinked = 0;
  const partition = keys.activityChain.records(request.trail, request.client).partition;
  // Record sort keys are `<ISO time>#<log id>`: `to` itself sorts before every record of that instant (exclusive).
  for await (const page of eachPage(table, { partition, sort: { between: [request.from, request.to] }, consistent: true }, 1_000)) {
    for (const item of page) {
      if (item.sk === request.to) continue;
      const marks = readAuditRecordMarks(item);
      if (marks.chain_state === 'linked' && marks.sequence !== undefined && Number.isSafeInteger(marks.sequence)) {
        first = Math.min(first, marks.sequence);
        last = Math.max(last, marks.sequence);
      } else unlinked += 1;
    }
  }
  return last === 0 ? { first: 0, last: 0, unlinked } : { first, last, unlinked };
}

async function trailCheckpoints(table: Dependencies['table'], request: ExportRequest): Promise<AuditCheckpointItem[]> {
  const checkpoints: AuditCheckpointItem[] = [];
  for await (const page of eachPage(table, { ...keys.activityChain.checkpoints(request.trail, request.client), consistent: true }, 1_000)) {
    for (const item of page) {
      const checkpoint = claimedAuditCheckpoint(item);
      if (checkpoint !== undefined) checkpoints.push(checkpoint);
    }
  }
  return checkpoints;
}

/** Builds the export archive of one trail and period (see the note above). Reads strongly consistent pages. */
export async function buildActivityExport(request: ExportRequest, { deps, signingKeyId, publicKeyPem, onProgress }: ExportDependencies): Promise<{ archive: Buffer; description: ExportDescription }> {
  const { table } = deps;
  const chain = keys.activityChain;
  const span = await periodSpan(table, request);
  const checkpoints = await trailCheckpoints(table, request);
  const cover = span.last === 0 ? undefined : checkpoints.find((checkpoint) => checkpoint.sequence >= span.last);
  const end = cover?.sequence ?? span.last;

  const records: ExportedRecord[] = [];
  let inPeriod = 0;
  if (span.last > 0) {
    const total = end - span.first + 1;
    const linkRange = { partition: chain.links(request.trail, request.client).partition, sort: { between: [chain.link(request.trail, request.client, span.first).sk, chain.link(request.trail, request.client, end).sk] as [string, string] } };
    for await (const page of eachPage(table, { ...linkRange, consistent: true }, PAGE_SIZE)) {
      const links = page.flatMap((item) => claimedAuditLink(item) ?? []);
      const stored = new Map(
        (await table.batchGet([...new Set(links.map((link) => link.record))].map((sort) => chain.record(request.trail, request.client, sort)))).map((item) => [item.sk, item] as const),
      );
      for (const link of links) {
        const item: TableItem | undefined = stored.get(link.record);
        const within = link.record >= request.from && link.record < request.to;
        if (within) inPeriod += 1;
        const marks = item === undefined ? undefined : readAuditRecordMarks(item);
        records.push({
          sequence: link.sequence,
          in_period: within,
          link,
          record: item === undefined || isDisposed(item) ? null : contentOf(item),
          ...(item !== undefined && isDisposed(item) ? { disposed: { retention_state: marks?.retention_state, disposal_id: marks?.disposal_id } } : {}),
        });
      }
      await onProgress?.(records.length, total);
    }
  }

  const coveredCheckpoints = checkpoints.filter((checkpoint) => span.last > 0 && checkpoint.sequence >= span.first && checkpoint.sequence <= end);
  const description: ExportDescription = {
    format: EXPORT_FORMAT,
    client: request.client,
    trail: request.trail,
    from: request.from,
    to: request.to,
    exported_at: deps.clock.now().toISOString(),
    first_sequence: span.first,
    last_sequence: records.at(-1)?.sequence ?? 0,
    records: records.length,
    records_in_period: inPeriod,
    unlinked_in_period: span.unlinked,
    covered_to: cover?.sequence ?? null,
    key_id: signingKeyId,
    signature_algorithm: MANIFEST_SIGNING_ALGORITHM,
  };
  const files = {
    [EXPORT_MEMBERS.trail]: lines(records),
    [EXPORT_MEMBERS.checkpoints]: lines(coveredCheckpoints),
    [EXPORT_MEMBERS.description]: Buffer.from(`${JSON.stringify(description, null, 2)}\n`, 'utf8'),
  };
  const manifest = Buffer.from(
    Object.entries(files)
      .map(([name, content]) => `${sha256(content)}  ${name}\n`)
      .join(''),
    'utf8',
  );
  const { signature, algorithm } = await deps.keys.sign(signingKeyId, manifest);
  // openssl verifies ECDSA over SHA-256 only: a key service signing otherwise would make a file nobody can check.
  if (algorithm !== MANIFEST_SIGNING_ALGORITHM) throw new Error(`The audit signing key signs with ${algorithm}, not ${MANIFEST_SIGNING_ALGORITHM}`);
  const archive = tarFile(
    [
      ...Object.entries(files).map(([name, content]) => ({ name, content })),
      { name: EXPORT_MEMBERS.manifest, content: manifest },
      { name: EXPORT_MEMBERS.signature, content: Buffer.from(signature) },
      { name: EXPORT_MEMBERS.publicKey, content: Buffer.from(publicKeyPem, 'utf8') },
    ],
    deps.clock.now(),
  );
  return { archive, description };
}
