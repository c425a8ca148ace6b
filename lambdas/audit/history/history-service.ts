import type { RecordVersion, VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { payloadAccess } from '#core/auth/access/payload-access.ts';
import type { ItemKey } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import { readRecordVersion } from '#core/store/entities/record-version.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import { accountDefaultsKey } from '#core/store/entities/account-defaults.ts';
import { migrationConfigKey } from '#core/store/entities/migration-config.ts';
import { readSupervisionItem } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { pageOf } from '#core/store/paging.ts';

/**
 * `GET history/{entity}/{reference}`: the earlier versions of one record, newest first. The record's own read rules
 * apply on top of the endpoint's action: a role without the read permission of the record's kind gets 403 as reading
 * the record would; a record outside the caller's groups is 404, as if it did not exist. Versions live in the record's
 * own partition (lambdas/core/store/entities/record-version.ts): one Query, never a Scan.
 */

/** The action that reads a record of each versioned kind (shared/contract/actions.ts). */
const READ_ACTION: Record<VersionedEntity, string> = {
  comment: 'comments:List',
  role: 'roles:Read',
  'retention-policy': 'retention:Read',
  'transfer-config': 'transferConfigs:Read',
  'client-app': 'apps:Read',
  'account-defaults': 'account:ReadDefaults',
  'migration-settings': 'migration:Read',
  'supervision-policy': 'supervision:ReadPolicy',
  'supervision-item': 'supervision:ReadItem',
  'legal-hold': 'legalHolds:List',
  group: 'groups:Read',
  'tag-definition': 'tags:Read',
  'device-user': 'deviceUsers:Read',
  'device-assignment': 'devices:ReadHistory',
};

/** A comment's history reference: `<payload_reference>~<comment_id>` (comments-service `commentHistoryReference`). */
const COMMENT_REFERENCE = /^([^~]+)~([^~]+)$/;

const recordNotFound = () => new NotFoundError('Record not found');

/** A legal hold's history reference: `<target_type>~<target>` (legal-holds.ts `legalHoldHistoryReference`). */
const LEGAL_HOLD_REFERENCE = /^(DeviceUser|PortalUser)~(.+)$/;

/**
 * A legal hold's versions, as the holds list shows it: one retention disposed of is gone; a device user's hold is
 * seen by a group-limited role only while that person is in its groups (a portal user's by anyone who lists holds).
 */
async function legalHoldKeyOf(caller: TenantCaller, reference: string): Promise<ItemKey> {
  const match = LEGAL_HOLD_REFERENCE.exec(reference);
  if (match === null) throw new ValidationError(['reference: A legal hold is named <DeviceUser|PortalUser>~<target>']);
  const [, targetType = '', target = ''] = match;
  const { deps, tenant } = caller;
  const key = keys.legalHold.key(tenant, targetType, target);
  const hold = await deps.table.get(key, { consistent: true });
  // Checked on the item as stored: retention's mark is not part of the hold's own schema.
  if (hold === undefined || hold.retention_state !== undefined) throw recordNotFound();
  const scope = caller.groupScope();
  if (targetType === 'DeviceUser' && !scope.unrestricted) {
    const person = await deps.table.get(keys.deviceUser.key(tenant, target), { consistent: true });
    await scope.visible(person === undefined ? undefined : readDeviceUser(person), recordNotFound);
  }
  return key;
}

/** Where the record's versions are, after its read rules: throws 400 / 403 / 404 as reading the record would. */
async function recordKeyOf(caller: TenantCaller, entity: VersionedEntity, reference: string): Promise<ItemKey> {
  const { tenant, access, deps } = caller;
  const readAction = READ_ACTION[entity];
  if (access?.can(readAction) !== true) throw new ForbiddenError(`Not allowed: ${readAction}`);
  switch (entity) {
    case 'role':
      return keys.role.item(tenant, reference);
    case 'retention-policy':
      // One policy per tenant, named by the tenant: another tenant's is never read.
      if (reference !== tenant) throw new NotFoundError('Record not found');
      return keys.retentionPolicy.key(tenant);
    case 'transfer-config':
      return keys.transferConfig.key(tenant, reference);
    case 'client-app':
      return keys.clientApp.item(tenant, reference);
    case 'account-defaults':
    case 'migration-settings':
      // One each per tenant, named by the tenant, as the retention policy is.
      if (reference !== tenant) throw new NotFoundError('Record not found');
      return entity === 'account-defaults' ? accountDefaultsKey(tenant) : migrationConfigKey(tenant);
    case 'supervision-policy':
      return keys.supervisionPolicy.item(tenant, reference);
    case 'supervision-item': {
      // As reading the item: one retention disposed of, or outside the caller's payload types or groups, is 404.
      const stored = await deps.table.get(keys.supervisionItem.key(tenant, reference), { consistent: true });
      if (stored === undefined) throw new NotFoundError('Record not found');
      const item = readSupervisionItem(stored);
      const refusal = await payloadAccess(deps, tenant, access, readAction).check({ payload_type: item.payload_type, group: item.group });
      if (item.retention_state !== undefined || refusal !== undefined) throw new NotFoundError('Record not found');
      return keys.supervisionItem.key(tenant, reference);
    }
    case 'legal-hold':
      return legalHoldKeyOf(caller, reference);
    case 'group':
      // Groups are read by name whatever the caller's group scope (GET groups/{group_reference}). A deleted group or
      // tag definition still answers the versions it left (listHistory).
      return keys.group.item(tenant, reference);
    case 'tag-definition':
      return keys.tagDefinition.item(tenant, reference);
    case 'device-user': {
      // As reading the person: outside the caller's groups is 404, as if they did not exist.
      const stored = await deps.table.get(keys.deviceUser.key(tenant, reference), { consistent: true });
      await caller.groupScope().visible(stored === undefined ? undefined : readDeviceUser(stored), recordNotFound);
      return keys.deviceUser.key(tenant, reference);
    }
    case 'device-assignment': {
      // A device's assignments, as reading its history: a device outside the caller's groups is 404.
      const stored = await deps.table.get(keys.device.key(tenant, reference), { consistent: true });
      await caller.groupScope().visible(stored === undefined ? undefined : readDevice(stored), recordNotFound);
      return keys.device.key(tenant, reference);
    }
    case 'comment': {
      const match = COMMENT_REFERENCE.exec(reference);
      if (match === null) throw new ValidationError(['reference: A comment is named <payload_reference>~<comment_id>']);
      const [, payloadReference = '', commentId = ''] = match;
      const payload = await deps.table.get(keys.payload.key(tenant, payloadReference));
      if (payload === undefined) throw new NotFoundError('Record not found');
      const { payload_type, group } = readPayload(payload);
      const refusal = await payloadAccess(deps, tenant, access, readAction).check({ payload_type, group });
      if (refusal === 'GroupNotAuthorised') throw new NotFoundError('Record not found');
      if (refusal !== undefined) throw new ForbiddenError(refusal);
      return keys.comment.key(tenant, payloadReference, commentId);
    }
  }
}

export async function listHistory(
  caller: TenantCaller,
  { entity, reference }: { entity: VersionedEntity; reference: string },
  page: { last_key?: string | undefined; limit: number },
): Promise<Page<RecordVersion>> {
  const record = await recordKeyOf(caller, entity, reference);
  const list = keys.recordVersion.listOf(record);
  const answer = await pageOf(caller.deps, {
    client: caller.tenant,
    query: { partition: list.partition, sort: list.sort, descending: true },
    filters: { entity, reference },
    page,
    // A version of another kind under the same key (never written) is left out. A damaged one fails the read, naming
    // its attributes, rather than being left out: a history shorter than the record's is a false answer.
    toData: (item) => {
      const version = readRecordVersion(item);
      return version.kind === entity ? version : undefined;
    },
  });
  // A record that is not there and has no versions (never existed, or another tenant's name) is 404, as reading it
  // would be; a deleted one still answers the versions it left.
  if (page.last_key === undefined && answer.data.length === 0 && (await caller.deps.table.get(record)) === undefined) throw new NotFoundError('Record not found');
  return answer;
}
