import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { NotFoundError } from '#core/errors.ts';
import type { GroupScope } from '#core/auth/access/group-scope.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ConditionFailedError, type ItemKey, type TableItem, type WriteCondition } from '#core/ports/table-store.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { legalHoldToItem, readLegalHold, toLegalHold, type LegalHoldItem } from '#core/store/entities/legal-hold.ts';
import { keys } from '#core/store/keys.ts';
import { allOf, listPage, notDeletedByRetention, perItem, type QueryOf } from '#core/store/paging.ts';
import { dueMarkerSync } from '../retention/due-index.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import type { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { readHold, type HoldTarget } from './coverage.ts';
import { holdCoverageCounts, type CoverageViewer } from './coverage-counts.ts';
import { continueHoldSync, REQUEST_BUDGET, trackedHoldSync, type WalkOutcome } from './hold-sync.ts';
import { startTrackedJob } from '../../jobs/public.ts';
import { versionWrites } from '../../audit/public.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';

export type { HoldTarget };

/**
 * The table, the clock, cursors (the list), the payload objects (their Object Lock legal holds), the job runner (a
 * large hold's walk goes on in the `legal-hold-sync` job) and the logger.
 */
export type LegalHoldDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors' | 'blobs' | 'jobs' | 'logger' | 'config'>;

/**
 * `GET account/legal_holds`: the tenant's holds (one type's with `target_type`), active and released unless
 * `active_only`. A group-limited role sees the holds on device users of its groups (and every portal user's hold:
 * portal users belong to no group). Each active hold on the page carries the counts of what it covers, as far as the
 * caller may see it (`payloads`: their payload-type and group access; coverage-counts.ts).
 */
export async function listLegalHolds(caller: TenantCaller, query: QueryOf<typeof accountDataEndpoints, 'client.legal-holds.list'>) {
  const { deps, tenant: client } = caller;
  const scope = caller.groupScope();
  // A released hold the retention job deleted leaves the list (it waits there for its destruction).
  const keep = perItem(allOf(notDeletedByRetention, query.active_only === true ? (item) => readLegalHold(item).is_active : undefined));
  const answer = await listPage(deps, {
    client,
    query: keys.legalHold.list(client, query.target_type),
    filters: { active_only: query.active_only },
    page: query,
    keep: scope.unrestricted ? keep : async (items) => inGroupScope(deps, client, scope, keep === undefined ? items : await keep(items)),
    toData: (item) => toLegalHold(readLegalHold(item)),
  });
  return 'data' in answer ? { ...answer, data: await withCoverage(deps, client, answer.data, { scope, payloads: caller.payloadScope() }) } : answer;
}

/** Holds whose coverage is counted at once (each runs its kinds' counts side by side). */
const COVERAGE_PARALLEL = 4;

/** Each active hold with the counts of what it covers (a released hold covers nothing, so it gets none). */
async function withCoverage(deps: Pick<LegalHoldDependencies, 'table'>, client: string, holds: readonly LegalHold[], viewer: CoverageViewer): Promise<LegalHold[]> {
  const answered: LegalHold[] = [];
  for (let start = 0; start < holds.length; start += COVERAGE_PARALLEL) {
    const batch = holds.slice(start, start + COVERAGE_PARALLEL).map(async (hold) =>
      hold.is_active ? { ...hold, coverage: await holdCoverageCounts(deps, client, { target: { targetType: hold.target_type, target: hold.target }, viewer }) } : hold,
    );
    answered.push(...(await Promise.all(batch)));
  }
  return answered;
}

/** The hold items whose device user is in the scope's groups (one BatchGet per batch), and every portal user's. */
async function inGroupScope(deps: Pick<LegalHoldDependencies, 'table'>, client: string, scope: GroupScope, items: readonly TableItem[]) {
  const holds = items.map((item) => ({ item, hold: readLegalHold(item) }));
  const deviceUsers = holds.filter(({ hold }) => hold.target_type === 'DeviceUser').map(({ hold }) => hold.target);
  const found = await deps.table.batchGet([...new Set(deviceUsers)].map((user) => keys.deviceUser.key(client, user)));
  const visible = new Set((await scope.filter(found.map(readDeviceUser))).map((user) => user.device_user_reference));
  return holds.filter(({ hold }) => hold.target_type === 'PortalUser' || visible.has(hold.target)).map(({ item }) => item);
}

/** The person a hold names, in the tenant: a device user, or a portal user (by reference, the token's subject). */
function targetKey(client: string, { targetType, target }: HoldTarget): ItemKey {
  return targetType === 'DeviceUser' ? keys.deviceUser.key(client, target) : keys.portalUser.item(client, target);
}

/** A hold's history reference (`GET history/legal-hold/{reference}`): `<target_type>~<target>`. */
export const legalHoldHistoryReference = ({ targetType, target }: HoldTarget) => `${targetType}~${target}`;

const notFound = ({ targetType, target }: HoldTarget) =>
  new NotFoundError(`${targetType === 'DeviceUser' ? 'Device user' : 'Portal user'} ${target} not found`);

const exists: WriteCondition = { kind: 'expression', expression: 'attribute_exists(#cpk)', names: { '#cpk': TABLE_KEYS.partitionKey } };

/**
 * The target exists in this tenant and, for a device user, is in the caller's groups; else 404, as for someone who
 * does not exist (another tenant's person is not found here). A release may name a device user deleted since
 * (`mayBeGone`): the hold outlives them.
 */
async function requireTarget(caller: TenantCaller, target: HoldTarget, mayBeGone = false) {
  const item = await caller.deps.table.get(targetKey(caller.tenant, target), { consistent: true });
  if (item === undefined) {
    if (mayBeGone) return;
    throw notFound(target);
  }
  if (target.targetType === 'DeviceUser') await caller.groupScope().visible(readDeviceUser(item), () => notFound(target));
}

/** What others write on a hold item besides its placing and release (the walk's progress, retention's marks). */
const HOLD_BOOKKEEPING = ['sync_id', 'sync_state', 'sync_position', 'objects_synced', 'sync_error', 'retention_state', 'deleted_at'];

/** Tries of a hold write when only the walk's progress moved under it (nobody changed the hold itself). */
const HOLD_WRITE_TRIES = 3;

/**
 * Writes the hold item (writeHoldOnce), read again and retried when only the walk's bookkeeping moved meanwhile: the
 * version kept must be the item exactly as replaced, and the walk's progress is no reason to refuse a person's change.
 */
async function writeHold(caller: TenantCaller, target: HoldTarget, active: boolean): Promise<LegalHoldItem> {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await caller.deps.table.get(keys.legalHold.key(caller.tenant, target.targetType, target.target), { consistent: true });
    try {
      return await writeHoldOnce(caller, target, { active, stored });
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || attempt >= HOLD_WRITE_TRIES) throw error;
      const now = await readHold(caller.deps, caller.tenant, target);
      const before = stored === undefined ? undefined : readLegalHold(stored);
      if (now === undefined || before === undefined || now.updated_at !== before.updated_at) throw error;
    }
  }
}

/**
 * Writes the hold item: created on first placing (its `created_at` kept ever after), `is_active` and who changed it
 * when. The write is conditional on the item being exactly as read (a concurrent change answers 409, never lost) and,
 * when placing, on the target still existing (checked in the same transaction, so a hold never names someone deleted
 * meanwhile). The hold it replaces is kept as a version in the same transaction.
 */
async function writeHoldOnce(
  caller: TenantCaller,
  target: HoldTarget,
  { active, stored }: { active: boolean; stored: TableItem | undefined },
): Promise<LegalHoldItem> {
  const { deps, tenant: client, principal } = caller;
  const existing = stored === undefined ? undefined : readLegalHold(stored);
  const now = deps.clock.now().toISOString();
  const hold: LegalHoldItem = {
    client,
    target: target.target,
    target_type: target.targetType,
    is_active: active,
    created_at: existing?.created_at ?? now,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: now,
    // A device user's hold starts a new walk over the recordings' objects; it supersedes any walk still going. A
    // portal user's release walks only the due markers parked under it (parked-markers.ts), shown nowhere.
    ...(target.targetType === 'DeviceUser' ? { sync_id: ulid(), sync_state: 'Syncing' as const, objects_synced: 0 } : active ? {} : { sync_id: ulid() }),
  };
  const unchanged: WriteCondition = stored === undefined ? { kind: 'item-not-exists' } : unchangedItem(stored, [...HOLD_BOOKKEEPING, 'updated_at']);
  try {
    await deps.table.transactWrite([
      { kind: 'put', item: legalHoldToItem(hold), condition: unchanged },
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'legal-hold', reference: legalHoldHistoryReference(target), stored, change: 'updated' }])),
      // Released: a retained record counted from now (its due marker); placed again: off the due index.
      ...dueMarkerSync(client, legalHoldToItem(hold)),
      ...(active ? [{ kind: 'check' as const, key: targetKey(client, target), condition: exists }] : []),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if (active && (await deps.table.get(targetKey(client, target), { consistent: true })) === undefined) throw notFound(target);
    throw new ConditionFailedError(`The legal hold on ${target.targetType} ${target.target} changed meanwhile; read it again`);
  }
  return hold;
}

/**
 * `PUT account/legal_holds/{target_type}/{target}`: places the hold (`is_active: true`, the default) or sets it
 * inactive. The target must exist in this tenant (404 otherwise; another tenant's person is simply not found here).
 * A device user's hold is then put on every recording it covers in S3 (object-holds.ts); a portal user's covers what
 * that person wrote, which lives in the table only, so no object changes.
 */
export async function putLegalHold(caller: TenantCaller, target: HoldTarget, active: boolean): Promise<LegalHold> {
  if (!active) return releaseLegalHold(caller, target);
  await requireTarget(caller, target);
  const hold = await writeHold(caller, target, true);
  return toLegalHold(await syncObjects(caller.deps, caller.tenant, hold));
}

/**
 * `DELETE account/legal_holds/{target_type}/{target}`: releases the hold, kept as an inactive record (404 when the
 * target never had one). A device user's recordings lose their object legal hold only where no other active hold
 * still covers them. Releasing a released hold stamps it again and re-runs the objects (so a failed release finishes).
 */
export async function releaseLegalHold(caller: TenantCaller, target: HoldTarget): Promise<LegalHold> {
  if (target.targetType === 'DeviceUser') await requireTarget(caller, target, true);
  const existing = await readHold(caller.deps, caller.tenant, target);
  if (existing === undefined) throw new NotFoundError(`No legal hold on ${target.targetType} ${target.target}`);
  const hold = await writeHold(caller, target, false);
  return toLegalHold(await syncObjects(caller.deps, caller.tenant, hold));
}

/**
 * Puts the recordings' objects in step with a device user's hold just written (hold-sync.ts), and on release puts
 * back the due markers the retention job parked under the hold (any hold): the record first, then the objects and
 * markers. The request walks the first pages itself, so a small hold answers `Synced`; the rest, or a walk that
 * failed here, goes on in the `legal-hold-sync` job from the last saved page, and the hold answers `Syncing`. Only a
 * job that cannot be started fails the call (500, the hold recorded; placing or releasing it again starts over).
 */
async function syncObjects(deps: LegalHoldDependencies, client: string, hold: LegalHoldItem): Promise<LegalHoldItem> {
  if (hold.sync_id === undefined) return hold;
  let outcome: WalkOutcome;
  try {
    outcome = await continueHoldSync(deps, { client, target: { targetType: hold.target_type, target: hold.target }, syncId: hold.sync_id }, REQUEST_BUDGET);
  } catch (error) {
    deps.logger.warn('legal hold walk failed in the request; the job carries on', { error: error instanceof Error ? error.message : String(error) });
    outcome = 'more';
  }
  if (outcome === 'more') {
    // Its running-job marker first: a walk whose job never starts, or dies, is resumed by the job-sweep.
    await startTrackedJob(
      deps,
      trackedHoldSync({ client, target: hold.target, ...(hold.target_type === 'DeviceUser' ? {} : { target_type: hold.target_type }), sync_id: hold.sync_id }),
    );
  }
  return (await readHold(deps, client, { targetType: hold.target_type, target: hold.target })) ?? hold;
}
