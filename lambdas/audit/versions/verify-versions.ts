import type { TableItem, TableStore } from '#core/ports/table-store.ts';
import { claimedRecordVersion } from '#core/store/entities/record-version.ts';
import { versionDigest, versionDigestsOf } from './versioned-write.ts';

/**
 * The versions check of the chain's verification (../trail/verify-chain.ts): a linked activity record carries the
 * SHA-256 of each record version its call kept (./versioned-write.ts), under its entry hash, so a version whose stored
 * content was altered afterwards no longer hashes to it. A version that is gone went with its record under retention
 * (it lives in the record's partition) and is not a break; one that is there must match.
 */

/** How many versions the record says its call kept. */
export const versionCount = (record: TableItem): number => versionDigestsOf(record).length;

/** Undefined when every version the record names is intact (or gone with its record), else what is wrong. */
export async function versionsProblem(table: Pick<TableStore, 'batchGet'>, record: TableItem): Promise<string | undefined> {
  const digests = versionDigestsOf(record);
  if (digests.length === 0) return undefined;
  const stored = new Map((await table.batchGet(digests.map(({ pk, sk }) => ({ pk, sk })))).map((item) => [`${item.pk}\u0000${item.sk}`, item]));
  for (const { pk, sk, sha256 } of digests) {
    const item = stored.get(`${pk}\u0000${sk}`);
    if (item === undefined) continue;
    // Over the stored attributes less placement, so an added or removed field shows as an edited one does.
    const { pk: _pk, sk: _sk, entity: _entity, ...content } = item;
    if (claimedRecordVersion(item)?.sha256 !== sha256 || versionDigest(content as Parameters<typeof versionDigest>[0]) !== sha256) {
      return `a record version (${sk.slice(0, 80)}) that no longer matches its digest: it was altered`;
    }
  }
  return undefined;
}
