import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { deviceLogItemSchema } from './device-log.ts';
import { deviceUserItemSchema } from './device-user.ts';
import { gpsItemSchema } from './gps.ts';
import { ledgerEntryItemSchema } from './ledger-entry.ts';
import { payloadItemSchema } from './payload.ts';
import { readItem } from './read-item.ts';

/**
 * The people a stored record names, as legal-hold coverage reads them (lambdas/account-data/legal-holds/coverage.ts):
 * the device that made a recording, fix, log line, call or ledger entry and the device user it is attributed to, the
 * portal user who made a call, a device user's own reference. Picked from each entity's item schema, the rest of the record left
 * unread (coverage reads every record retention keeps and must not fail on what it does not need). Each is optional:
 * a record that names nobody is covered by no hold on a person. The other records retention keeps (alerts, transfer
 * runs, migrations, support access, legal holds) name no one a hold covers.
 *
 * An activity record may hold an entry the contract refused, kept as given (lambdas/audit/trail/activity-log.ts:
 * losing an audit record is worse than keeping an odd one), so its names never fail the read: one that is not text
 * reads as none, as a missing one does.
 */

const DEVICE_DATA = { device_reference: true, device_user_reference: true } as const;

const activityNameSchema = /* @__PURE__ */ onFirstUse(() => z.string().optional().catch(undefined));

const peopleSchemas = /* @__PURE__ */ onFirstUse(() => ({
  Payload: payloadItemSchema().pick(DEVICE_DATA).partial().extend({ entity: z.literal('Payload') }),
  Gps: gpsItemSchema().pick(DEVICE_DATA).partial().extend({ entity: z.literal('Gps') }),
  DeviceLog: deviceLogItemSchema().pick(DEVICE_DATA).partial().extend({ entity: z.literal('DeviceLog') }),
  DeviceActivity: z.object({ entity: z.literal('DeviceActivity'), device_reference: activityNameSchema(), device_user_reference: activityNameSchema() }),
  UserActivity: z.object({ entity: z.literal('UserActivity'), device_reference: activityNameSchema(), device_user_reference: activityNameSchema(), user_id: activityNameSchema() }),
  DeviceUser: deviceUserItemSchema().pick({ device_user_reference: true }).partial().extend({ entity: z.literal('DeviceUser') }),
  // A ledger entry names the phone that saw the call and who held it then: a hold on either keeps it.
  LedgerEntry: ledgerEntryItemSchema().pick(DEVICE_DATA).partial().extend({ entity: z.literal('LedgerEntry') }),
  // A review item names the recording's device and device user: a hold on either keeps it.
  SupervisionItem: z.object({ entity: z.literal('SupervisionItem'), device_reference: z.string().optional(), device_user_reference: z.string().optional() }),
}));

type PeopleEntity = keyof ReturnType<typeof peopleSchemas>;

/** Who a record names, whatever its entity. */
export interface RecordPeople {
  entity: PeopleEntity;
  device_reference?: string | undefined;
  device_user_reference?: string | undefined;
  user_id?: string | undefined;
}

const namesPeople = (entity: string): entity is PeopleEntity => Object.hasOwn(peopleSchemas(), entity);

/** The people the record names, or undefined for an entity that names no one a hold covers. */
export function readRecordPeople(item: TableItem): RecordPeople | undefined {
  return namesPeople(item.entity) ? readItem(item.entity, peopleSchemas()[item.entity], item) : undefined;
}
