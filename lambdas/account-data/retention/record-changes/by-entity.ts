import { approvalChanges } from './approval.ts';
import { erasureRequestChanges } from './erasure-request.ts';
import { caseChanges } from './case.ts';
import { deviceUserChanges } from './device-user.ts';
import { legalHoldChanges } from './legal-hold.ts';
import { ledgerEntryChanges } from './ledger-entry.ts';
import { migrationChanges } from './migration.ts';
import type { RecordChanges } from './shared.ts';
import { supportAccessChanges } from './support-access.ts';
import { supervisionItemChanges } from './supervision-item.ts';
import { transferChanges } from './transfer.ts';

/**
 * The record types whose records are not events but things with a life (a support grant, a hold, a transfer run, a
 * migration, a device user): each is due only once it has ended, and each says what Deleted and Destroyed do to it
 * (docs/decisions.md "Retention job"); and a ledger entry, an event whose reconciliation settles first and whose
 * deletion takes it out of its lists. `dispose.ts` asks this table by entity tag; the types it does not list
 * (payloads, fixes, logs, alerts, activity records) keep dispose.ts' own handling.
 */
// Built on first use, not at load: areas meet through public modules whose import graph has cycles, and a table
// read at load time could meet a module not evaluated yet.
const recordChangesByEntity = (): Readonly<Record<string, RecordChanges>> => ({
  SupportAccess: supportAccessChanges,
  LegalHold: legalHoldChanges,
  Transfer: transferChanges,
  Migration: migrationChanges,
  DeviceUser: deviceUserChanges,
  SupervisionItem: supervisionItemChanges,
  LedgerEntry: ledgerEntryChanges,
  Case: caseChanges,
  PendingChange: approvalChanges,
  ErasureRequest: erasureRequestChanges,
});
let table: Readonly<Record<string, RecordChanges>> | undefined;

/** The record changes of an entity tag, when it is one of these types (own properties only). */
export function recordChangesOf(entity: string): RecordChanges | undefined {
  table ??= recordChangesByEntity();
  return Object.hasOwn(table, entity) ? table[entity] : undefined;
}

