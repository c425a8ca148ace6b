import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { payloadDueMarkerItems } from '../account-data/public.ts';
import { openPayloadMeta, PayloadCryptoError } from '../device-crypto/public.ts';
import { downloadNameOf } from './download-facts.ts';
import { waveformObjectKey } from './processing/waveform-peaks.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { processedIndexKeys, readPayload, toPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { payloadAuditToItem, readPayloadAudit, toPayloadAudit, type PayloadAuditAction, type PayloadAuditItem } from '#core/store/entities/payload-audit.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import type { DataAction, PayloadDataStatus } from '#shared/constants/payloads.ts';
import type { BulkResult } from '#shared/contract/entities/alerts.ts';
import type { PayloadAudit } from '#shared/contract/entities/payloads.ts';

/** Data links live a few minutes: long enough to start a player or a download, short enough not to be shared. */
export const DATA_URL_SECONDS = 300;
/** Payload types without media: their meta is the record (spec: NoS3Url for aborted and blocked calls). */
const NO_MEDIA = new Set(['AbortedCall', 'BlockedCall']);
/** States whose processed object exists and may be linked. */
const LINKABLE = new Set(['Processed', 'Transferred']);
/** Audit records a payload's audit shows at most (a payload is played a bounded number of times; pages of 1,000). */
const MAX_AUDIT_PAGES = 20;

/** The payload item, checked against the caller's restriction for the endpoint's action: 404 when absent, 403 naming the refusal. */
async function readableItem(caller: TenantCaller, reference: string): Promise<PayloadItem> {
  const item = await caller.deps.table.get(keys.payload.key(caller.tenant, reference));
  if (item === undefined) throw new NotFoundError('NoMatchingRecord: Payload not found');
  const payload = readPayload(item);
  const refusal = await caller.payloadScope().check(payload);
  if (refusal !== undefined) throw new ForbiddenError(`${refusal}: Your roles do not open this payload's ${refusal === 'TypeNotAuthorised' ? 'type' : 'group'}`);
  return payload;
}

/**
 * `GET payloads/{ref}`: the payload with its meta decrypted (the DEK unwrapped with the tenant KEK named by key_id).
 * Meta that does not open (a payload that failed processing) is left out rather than failing the read.
 */
export async function getPayload(caller: TenantCaller, reference: string) {
  const { deps, tenant: client } = caller;
  const item = await readableItem(caller, reference);
  const payload = toPayload(item);
  if (item.sealed_meta === undefined) return payload;
  try {
    const meta = await openPayloadMeta(deps, client, { encrypted_dek: item.encrypted_dek, key_id: item.key_id, sealed_meta: item.sealed_meta });
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) return { ...payload, meta: meta as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof PayloadCryptoError)) throw error;
    deps.logger.warn('payload meta does not open', { payload_reference: reference, failure: error.failure });
  }
  return payload;
}

interface DataOutcome {
  payload_reference: string;
  status: PayloadDataStatus;
  s3_url?: string;
}

/** What a data link is for (play, view or download) and who asks: the same for every payload of one call. */
interface DataRequest {
  action: DataAction;
  actor: Actor;
}

/** The link for one payload item already read (or its refusal), with its audit record when a link is given. */
async function dataFor(caller: TenantCaller, { action, actor }: DataRequest, reference: string, item: PayloadItem | undefined): Promise<DataOutcome> {
  const { deps, tenant: client } = caller;
  if (item === undefined) return { payload_reference: reference, status: 'NoMatchingRecord' };
  const refusal = await caller.payloadScope().check(item);
  if (refusal !== undefined) return { payload_reference: reference, status: refusal };
  if (NO_MEDIA.has(item.payload_type)) return { payload_reference: reference, status: 'NoS3Url' };
  if (!LINKABLE.has(item.payload_state)) return { payload_reference: reference, status: 'NoMatchingRecord' };
  // A download is saved under a name that says what it is (download-facts.ts); a play or view link shows in place.
  const s3Url = await deps.blobs.presignGet('processed', payloadObjectKey(client, reference), {
    expiresInSeconds: DATA_URL_SECONDS,
    ...(action === 'download' ? { downloadName: await downloadNameOf(deps, client, item) } : {}),
  });
  // The audit record is written before the link leaves: a link without its record never reaches a caller.
  await writeAudit(deps, client, reference, { action, portal_user: actor.reference, actor });
  return { payload_reference: reference, status: 'Ok', s3_url: s3Url };
}

async function writeAudit(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  client: string,
  reference: string,
  record: { action: PayloadAuditAction; portal_user: string; actor: Actor },
): Promise<string> {
  const time = deps.clock.now().toISOString();
  await deps.table.put(payloadAuditToItem(client, { payload_reference: reference, ...record, time }, ulid()));
  return time;
}

/**
 * `GET payloads/{ref}/data`: a short-lived pre-signed link to the processed object, audited: one payload audit record
 * of the action (play, view or download) per link given. The caller's action is the one the call was authorized for
 * (the endpoint's `actionByQuery`: payloads:Play for play and view, payloads:Download for download); its group
 * conditions decide the payload's group. Refusals: 404
 * NoMatchingRecord (absent, or no processed object) or NoS3Url (aborted and blocked calls have no media), 403
 * GroupNotAuthorised or TypeNotAuthorised; each message starts with the PayloadDataStatus.
 */
export async function getPayloadData(caller: TenantCaller, reference: string, action: DataAction): Promise<{ s3_url: string }> {
  const item = await caller.deps.table.get(keys.payload.key(caller.tenant, reference));
  const outcome = await dataFor(caller, { action, actor: actorRecordOf(caller.principal) }, reference, item === undefined ? undefined : readPayload(item));
  switch (outcome.status) {
    case 'Ok':
      return { s3_url: outcome.s3_url as string };
    case 'GroupNotAuthorised':
    case 'TypeNotAuthorised':
      throw new ForbiddenError(`${outcome.status}: Your roles do not open this payload's ${outcome.status === 'TypeNotAuthorised' ? 'type' : 'group'}`);
    case 'NoS3Url':
      throw new NotFoundError('NoS3Url: Aborted and blocked calls have no recording');
    default:
      throw new NotFoundError('NoMatchingRecord: No processed recording for this payload');
  }
}

/** `GET data`: 1 to 100 unique references (the contract checked), one status each, in the order asked; the action as for one. */
export async function getBulkData(caller: TenantCaller, references: readonly string[], action: DataAction) {
  const { deps, tenant: client } = caller;
  const restriction = caller.payloadScope();
  const items = (await deps.table.batchGet(references.map((reference) => keys.payload.key(client, reference)))).map(readPayload);
  const byReference = new Map(items.map((item) => [item.payload_reference, item]));
  // Judge every group in one batch before the per-item checks.
  await restriction.filter(items);
  const request: DataRequest = { action, actor: actorRecordOf(caller.principal) };
  const data: DataOutcome[] = [];
  for (const reference of references) {
    data.push(await dataFor(caller, request, reference, byReference.get(reference)));
  }
  return { data };
}

/**
 * `GET payloads/{ref}/waveform`: a short-lived link to the recording's waveform peaks, for a player to draw before any
 * audio is asked for. Derived data, not the recording: no payload audit record (the call's activity record is its
 * trace). 404 when processing computed no peaks (only PCM WAV has them: the player then plays without a waveform).
 */
export async function getPayloadWaveform(caller: TenantCaller, reference: string) {
  const { deps, tenant: client } = caller;
  const item = await readableItem(caller, reference);
  if (item.waveform_peaks !== true || !LINKABLE.has(item.payload_state)) throw new NotFoundError('NoMatchingRecord: No waveform for this recording');
  return { peaks_url: await deps.blobs.presignGet('processed', waveformObjectKey(client, reference), { expiresInSeconds: DATA_URL_SECONDS }) };
}

/** `GET payloads/{ref}/audit`: plays, downloads and transfers, and receipts, oldest first. */
export async function getPayloadAudit(caller: TenantCaller, reference: string): Promise<PayloadAudit> {
  const { deps, tenant: client } = caller;
  await readableItem(caller, reference);
  const stored: PayloadAuditItem[] = [];
  const { pk } = keys.payload.key(client, reference);
  let startKey: Record<string, string> | undefined;
  for (let pages = 0; pages < MAX_AUDIT_PAGES; pages += 1) {
    const page = await deps.table.query({ partition: pk, sort: { beginsWith: keys.payload.auditPrefix }, limit: 1_000, ...(startKey ? { startKey } : {}) });
    stored.push(...page.items.map(readPayloadAudit));
    startKey = page.lastKey;
    if (startKey === undefined) break;
  }
  return toPayloadAudit(reference, stored);
}

/**
 * `POST payloads/{ref}/restore`: Deleted → Processed, by a conditional update on the state read (a concurrent
 * change answers 409 rather than being overwritten). Destroyed is final: 409 saying so. Anything else is not deleted.
 */
export async function restorePayload(caller: TenantCaller, reference: string) {
  const { deps, tenant: client, principal } = caller;
  const item = await readableItem(caller, reference);
  if (item.payload_state === 'Destroyed') {
    throw new ConflictError('payload_state: A destroyed payload cannot be restored; its recording no longer exists');
  }
  if (item.payload_state !== 'Deleted') throw new ConflictError(`payload_state: Only a deleted payload can be restored (this one is ${item.payload_state})`);
  try {
    // The retention markers go back to the live stage with it (lambdas/account-data/retention/due-index.ts): restored,
    // it is due again under the policy that deleted it, unless the policy or a legal hold now keeps it.
    await deps.table.transactWrite([
      {
        kind: 'update',
        key: keys.payload.key(client, reference),
        update: {
          set: {
            payload_state: 'Processed',
            // Back among the Processed recordings at its own processing time (a window already past stays past).
            ...processedIndexKeys(client, { ...item, payload_state: 'Processed' }),
            updated_at: deps.clock.now().toISOString(),
            updated_by: actorOf(principal),
            updated_by_actor: actorRecordOf(principal),
          },
        },
        condition: { kind: 'expression', expression: '#state = :deleted', names: { '#state': 'payload_state' }, values: { ':deleted': 'Deleted' } },
      },
      ...payloadDueMarkerItems(client, { ...item, payload_state: 'Processed' }).map((marker) => ({ kind: 'put' as const, item: marker })),
    ]);
    const updated = await deps.table.get(keys.payload.key(client, reference), { consistent: true });
    return toPayload(updated === undefined ? item : readPayload(updated));
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError('payload_state: The payload changed meanwhile; read it again');
    throw error;
  }
}

/**
 * `POST receipts`: confirms receipt of each payload the caller may see (receipt_confirmed_at/by, and a receipt in
 * its audit). A reference that is absent or refused is a failure of the bulk result, never a 5xx.
 */
export async function confirmReceipts(caller: TenantCaller, references: readonly string[]) {
  const { deps, tenant: client, principal } = caller;
  const restriction = caller.payloadScope();
  const items = (await deps.table.batchGet(references.map((reference) => keys.payload.key(client, reference)))).map(readPayload);
  const byReference = new Map(items.map((item) => [item.payload_reference, item]));
  await restriction.filter(items);
  const actor = actorRecordOf(principal);
  const data: BulkResult['data'] = [];
  for (const reference of references) {
    const item = byReference.get(reference);
    const refusal = item === undefined ? 'NoMatchingRecord' : await restriction.check(item);
    if (refusal !== undefined) {
      data.push({ reference, ok: false, message: refusal });
      continue;
    }
    // The receipt and its audit record are written together: never one without the other.
    const time = deps.clock.now().toISOString();
    await deps.table.transactWrite([
      { kind: 'put', item: payloadAuditToItem(client, { payload_reference: reference, action: 'receipt', portal_user: actor.reference, actor, time }, ulid()) },
      {
        kind: 'update',
        key: keys.payload.key(client, reference),
        update: { set: { receipt_confirmed_at: time, receipt_confirmed_by: actor.reference, receipt_confirmed_by_actor: actor } },
        condition: { kind: 'item-exists' },
      },
      // Its retention marker counting from the receipt (lambdas/account-data/retention/due-index.ts).
      ...payloadDueMarkerItems(client, { ...item, payload_reference: reference, receipt_confirmed_at: time }, ['receipt_confirmed_at']).map((marker) => ({ kind: 'put' as const, item: marker })),
    ]);
    data.push({ reference, ok: true });
  }
  return { data };
}
