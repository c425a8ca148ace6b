import { ConditionFailedError, type ItemKey, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import type { DisposeDependencies } from '../dispose.ts';

/** Version deletes per transaction, beside the check that the record is still as read (DynamoDB takes 100). */
const VERSIONS_PER_TRANSACTION = 99;

/**
 * A record's destruction takes the versions its changes kept (lambdas/audit/versions/versioned-write.ts: in the
 * record's own partition) with it: an earlier state must not outlive the record, least of all a person's erased names.
 * They go ahead of the destruction's own transaction, in transactions that each check the record is still as read
 * (`asRead`), so a record changed meanwhile, whose disposal is then refused, keeps them. Read by Query, never a Scan.
 */
export async function removeRecordVersions(deps: DisposeDependencies, record: ItemKey, asRead: WriteCondition): Promise<void> {
  const versions = keys.recordVersion.listOf(record);
  const check: TransactOperation = { kind: 'check', key: { pk: record.pk, sk: record.sk }, condition: asRead };
  for await (const page of eachPage(deps.table, { partition: versions.partition, sort: versions.sort, consistent: true }, VERSIONS_PER_TRANSACTION)) {
    if (page.length === 0) continue;
    try {
      await deps.table.transactWrite([check, ...page.map((item): TransactOperation => ({ kind: 'delete', key: { pk: item.pk, sk: item.sk } }))]);
    } catch (error) {
      // The record changed meanwhile: its disposal's own transaction is refused too, and its versions stay with it.
      if (error instanceof ConditionFailedError) return;
      throw error;
    }
  }
}
