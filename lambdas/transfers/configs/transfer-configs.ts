import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import {
  readTransferConfig,
  toTransferConfig,
  transferConfigToItem,
  type SealedSecret,
  type TransferConfigItem,
} from '#core/store/entities/transfer-config.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { TransferConfig, TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import type { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { securityAlertWrites } from '../../alerts/public.ts';
import { versionWrites } from '../../audit/public.ts';
import { externalIdOf } from '../delivery/customer-role.ts';
import { destinationChange, destinationWords } from './destination.ts';
import { scheduleNameOf, scheduleOf } from './schedules.ts';
import { sealSecret, type SecretPlace } from './secrets.ts';
import { configProblems } from './validation.ts';

/** What the transfer configuration services use. */
export type TransferDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors' | 'keys' | 'scheduler' | 'jobs' | 'logger' | 'config'>;

export const CONFIG_NOT_FOUND = 'Transfer configuration not found';
export const CONFIG_EXISTS = 'A transfer configuration with this reference already exists';
export const CONFIG_CHANGED = 'The transfer configuration was changed meanwhile; reload it and try again';
export const SCHEDULE_NOT_SAVED = 'The schedule could not be saved, so the transfer configuration was not changed';
export const GROUP_LIMITED =
  'Transfers export the payloads of every group: a role limited to some groups cannot configure or run them';

/** A configuration exports every group's payloads, so only a caller whose role is not limited to groups may change or run one. */
export function requireWholeTenant(caller: Pick<TenantCaller, 'groupScope'>): void {
  if (!caller.groupScope().unrestricted) throw new ForbiddenError(GROUP_LIMITED);
}

const revisionIs = (revision: string): WriteCondition => ({
  kind: 'expression',
  expression: '#revision = :revision',
  names: { '#revision': 'revision' },
  values: { ':revision': revision },
});

/** The configuration as the API answers it, with the ExternalId an S3 target's role must require. */
function shownConfig(stored: TransferConfigItem): TransferConfig {
  const shown = toTransferConfig(stored);
  return stored.target_type === 'S3' ? { ...shown, external_id: externalIdOf(stored.client) } : shown;
}

export async function loadTransferConfig(
  dependencies: Pick<Dependencies, 'table'>,
  client: string,
  reference: string,
): Promise<TransferConfigItem | undefined> {
  return (await loadStoredConfig(dependencies, client, reference))?.config;
}

/** The configuration read, and its item exactly as stored (what a change keeps as the version it replaced). */
async function loadStoredConfig(dependencies: Pick<Dependencies, 'table'>, client: string, reference: string) {
  const item = await dependencies.table.get(keys.transferConfig.key(client, reference), { consistent: true });
  return item === undefined ? undefined : { item, config: readTransferConfig(item) };
}

/**
 * A version of a configuration never holds its secrets (neither the plaintext, which is never stored, nor the sealed
 * bytes): each sealed password it had is kept as a marker saying whether the change replaced (or dropped) it.
 */
export const SECRET_CHANGED = '(kept secret, changed)';
export const SECRET_UNCHANGED = '(kept secret, unchanged)';
const SEALED_SECRETS = ['sealed_zip_password', 'sealed_sftp_password'] as const;

const sameSecret = (a: SealedSecret | undefined, b: SealedSecret | undefined) => a !== undefined && b !== undefined && a.key_id === b.key_id && a.wrapped === b.wrapped;

/** The writes keeping `stored` (the item as read) as the version this change replaces; `next` is what replaces it. */
function configVersionWrites(caller: TenantCaller, stored: TableItem, next: TransferConfigItem | undefined): TransactOperation[] {
  const before = readTransferConfig(stored);
  const redact = Object.fromEntries(SEALED_SECRETS.map((field) => [field, sameSecret(before[field], next?.[field]) ? SECRET_UNCHANGED : SECRET_CHANGED]));
  const change = next === undefined ? 'deleted' : 'updated';
  return versionWrites(caller, [{ entity: 'transfer-config', reference: before.transfer_config_reference, stored, change, redact }]);
}

export function listTransferConfigs(caller: TenantCaller, query: QueryOf<typeof transferEndpoints, 'client.transfer-configs.list'>) {
  const { deps: dependencies, tenant: client } = caller;
  return listPage(dependencies, {
    client,
    query: keys.transferConfig.list(client),
    page: query,
    toData: (item) => shownConfig(readTransferConfig(item)),
  });
}

export async function getTransferConfig(caller: TenantCaller, reference: string): Promise<TransferConfig> {
  const stored = await loadTransferConfig(caller.deps, caller.tenant, reference);
  if (stored === undefined) throw new NotFoundError(CONFIG_NOT_FOUND);
  return shownConfig(stored);
}

/**
 * The sealed secret the saved configuration keeps: the one given now (sealed), else the stored one while the format
 * or target still uses it; a secret the configuration no longer uses is dropped.
 */
async function keptSecret(
  dependencies: TransferDependencies,
  place: SecretPlace,
  { given, stored, used }: { given: string | undefined; stored: SealedSecret | undefined; used: boolean },
): Promise<SealedSecret | undefined> {
  if (!used) return undefined;
  if (given !== undefined) return sealSecret(dependencies, place, given);
  return stored;
}

/**
 * Makes the scheduler hold what `config` needs: its schedule (created or replaced), or none (the previous one, named
 * by `previousName`, removed). Throws what the scheduler threw.
 */
async function syncSchedule(dependencies: TransferDependencies, config: TransferConfigItem | undefined, previousName: string | undefined) {
  const wanted = config === undefined ? undefined : scheduleOf(config);
  if (wanted !== undefined) await dependencies.scheduler.upsertSchedule(wanted);
  else if (previousName !== undefined) await dependencies.scheduler.deleteSchedule(previousName);
}

/**
 * Two writers of one configuration may finish their schedule calls out of order. After ours, the stored item is read
 * again: if another write has replaced ours meanwhile, the schedule is set once more from what is stored now, so the
 * last one to finish leaves the schedule the stored configuration needs.
 */
async function converge(dependencies: TransferDependencies, ours: TransferConfigItem | undefined, client: string, reference: string) {
  const now = await loadTransferConfig(dependencies, client, reference);
  if (now?.revision === ours?.revision) return;
  await syncSchedule(dependencies, now, scheduleNameOf(client, reference));
}

/**
 * Undoes a configuration write whose schedule could not be saved, unless another write replaced it since. If even
 * the undo fails, the item and its schedule disagree until the next write: that is logged as an error, loudly. The
 * undo is a change like any other: it keeps the written configuration as the version it replaced (it was stored, and
 * its alert raised), so the history shows it came and went.
 */
async function undoWrite(caller: TenantCaller, written: TransferConfigItem, previous: TableItem | undefined, cause: unknown) {
  const dependencies = caller.deps;
  const key = keys.transferConfig.key(written.client, written.transfer_config_reference);
  const writtenItem = transferConfigToItem(written);
  try {
    await dependencies.table.transactWrite([
      previous === undefined
        ? { kind: 'delete', key, condition: revisionIs(written.revision) }
        : { kind: 'put', item: previous, condition: revisionIs(written.revision) },
      ...configVersionWrites(caller, writtenItem, previous === undefined ? undefined : readTransferConfig(previous)),
    ]);
  } catch (undoError) {
    dependencies.logger.error('transfer configuration and its schedule disagree: the write could not be undone', {
      client: written.client,
      transfer_config_reference: written.transfer_config_reference,
      schedule_error: cause instanceof Error ? cause.message : String(cause),
      undo_error: undoError instanceof Error ? undoError.message : String(undoError),
    });
  }
}

/**
 * Creates (`create`: 409 when the reference exists) or replaces (`replace`: 404 when it does not) a configuration,
 * with its schedule.
 *
 * Order: the item is written first (conditional, so racing writers cannot overwrite each other unseen), then the
 * scheduler is told. If the scheduler call fails the item write is undone and the answer is a 503: the caller's
 * change is neither half made nor reported as made. Secrets given are sealed with the key service before anything
 * is written; the answer says only whether each is set.
 */
export async function saveTransferConfig(
  caller: TenantCaller,
  reference: string,
  request: TransferConfigRequest,
  mode: 'create' | 'replace',
): Promise<TransferConfig> {
  requireWholeTenant(caller);
  const { deps: dependencies, tenant: client } = caller;
  const stored = mode === 'replace' ? await loadStoredConfig(dependencies, client, reference) : undefined;
  const existing = stored?.config;
  if (mode === 'replace' && existing === undefined) throw new NotFoundError(CONFIG_NOT_FOUND);
  const now = dependencies.clock.now();
  const lines = await configProblems(request, existing, caller.access, now);
  if (lines.length > 0) throw new ValidationError(lines);

  const given = request.secured_data ?? {};
  const sealedZip = await keptSecret(
    dependencies,
    { client, configReference: reference, field: 'zip_password' },
    { given: given.zip_password, stored: existing?.sealed_zip_password, used: request.transfer_file_format === 'ZippedWithPassword' },
  );
  const sealedSftp = await keptSecret(
    dependencies,
    { client, configReference: reference, field: 'sftp_password' },
    { given: given.sftp_password, stored: existing?.sealed_sftp_password, used: request.target_type === 'SFTP' },
  );
  const stamp = now.toISOString();
  const base = {
    client,
    transfer_config_reference: reference,
    transfer_type: request.transfer_type,
    target_type: request.target_type,
    payload_types: [...new Set(request.payload_types)],
    schedule: request.schedule,
    ...(request.pgp_key === undefined ? {} : { pgp_key: request.pgp_key.trim() }),
    transfer_file_format: request.transfer_file_format,
    params: request.params,
    is_active: request.is_active,
    ...(sealedZip === undefined ? {} : { sealed_zip_password: sealedZip }),
    ...(sealedSftp === undefined ? {} : { sealed_sftp_password: sealedSftp }),
    revision: ulid(now.getTime()),
    created_at: existing?.created_at ?? stamp,
    updated_by: actorOf(caller.principal),
    updated_by_actor: actorRecordOf(caller.principal),
    updated_at: stamp,
  };
  const schedule = scheduleOf(base);
  const config: TransferConfigItem = { ...base, ...(schedule === undefined ? {} : { schedule_name: schedule.name }) };

  // A new or changed destination is written with its sec alert, in one transaction: recordings never go to an address
  // nobody was told of. (Undone below if the schedule cannot be saved, the alert stays: the address was stored.)
  const change = destinationChange(existing, config);
  const alert =
    change === undefined
      ? []
      : securityAlertWrites(dependencies, client, {
          kind: 'transfer-destination-changed',
          change,
          config: reference,
          destination: destinationWords(config),
          schedule: config.schedule,
          active: config.is_active,
          actor: base.updated_by_actor,
          ip: caller.access?.ip,
        });
  try {
    await dependencies.table.transactWrite([
      {
        kind: 'put',
        item: transferConfigToItem(config),
        condition: existing === undefined ? { kind: 'item-not-exists' } : revisionIs(existing.revision),
      },
      ...alert,
      // The configuration as it was (less its secrets), kept with the change; the revision condition makes it the one replaced.
      ...(stored === undefined ? [] : configVersionWrites(caller, stored.item, config)),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    throw new ConflictError(mode === 'create' ? CONFIG_EXISTS : CONFIG_CHANGED);
  }

  const previousName = existing?.schedule_name;
  try {
    await syncSchedule(dependencies, config, previousName);
  } catch (error) {
    await undoWrite(caller, config, stored?.item, error);
    throw new ServiceUnavailableError(SCHEDULE_NOT_SAVED, { cause: error });
  }
  await converge(dependencies, config, client, reference);
  return shownConfig(config);
}

/**
 * Deletes a configuration and its schedule. The item goes first (conditional on the revision read); if its schedule
 * cannot be removed the item is put back and the answer is a 503, so a schedule never outlives its configuration
 * unseen. Its transfers (runs) stay: they are the record of what was delivered.
 */
export async function deleteTransferConfig(caller: TenantCaller, reference: string) {
  requireWholeTenant(caller);
  const { deps: dependencies, tenant: client } = caller;
  const stored = await loadStoredConfig(dependencies, client, reference);
  if (stored === undefined) throw new NotFoundError(CONFIG_NOT_FOUND);
  const existing = stored.config;
  try {
    // The configuration deleted is kept (less its secrets) as its last version, in the delete's transaction.
    await dependencies.table.transactWrite([
      { kind: 'delete', key: keys.transferConfig.key(client, reference), condition: revisionIs(existing.revision) },
      ...configVersionWrites(caller, stored.item, undefined),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    throw new ConflictError(CONFIG_CHANGED);
  }
  if (existing.schedule_name === undefined) return;
  try {
    await dependencies.scheduler.deleteSchedule(existing.schedule_name);
  } catch (error) {
    try {
      // Put back as it was stored (a re-creation replaces nothing, so it keeps no version).
      await dependencies.table.put(stored.item, { condition: { kind: 'item-not-exists' } });
    } catch (undoError) {
      dependencies.logger.error('transfer configuration deleted but its schedule remains', {
        client,
        transfer_config_reference: reference,
        schedule_error: error instanceof Error ? error.message : String(error),
        undo_error: undoError instanceof Error ? undoError.message : String(undoError),
      });
    }
    throw new ServiceUnavailableError(SCHEDULE_NOT_SAVED, { cause: error });
  }
  await converge(dependencies, undefined, client, reference);
}
