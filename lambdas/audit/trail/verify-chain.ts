import type { Dependencies } from '../../core/dependencies.ts';
import type { QuerySpec, TableItem } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { eachPage } from '../../core/store/paging.ts';
import { entryHash, GENESIS_HASH, linkHash, linkOfHead, type ChainLink } from './activity-chain.ts';
import { checkpointSignatureHolds } from './checkpoint.ts';
import { claimedAuditCheckpoint, claimedAuditLink, readAuditRecordMarks } from '../../core/store/entities/audit-chain.ts';
import { disposalKeyOf, disposalProblem, isDisposed } from './disposed-records.ts';
import { versionCount, versionsProblem } from '../versions/verify-versions.ts';

/** Why a trail is not whole. */
export type ChainBreak =
  /** A record's content no longer matches the entry hash its link holds, or a link no longer matches its own hash. */
  | 'edited'
  /** A link, or the record a link names, is gone. */
  | 'missing'
  /** A link or record sits at another place than it says (moved, swapped, copied in). */
  | 'reordered'
  /** A link's `previous_hash` is not the hash of the link before it. */
  | 'unlinked'
  /** The head disagrees with the last link. */
  | 'head-mismatch'
  /** A record claims a place in the chain that no link gives it. */
  | 'inserted'
  /** A record is neither linked nor waiting to be linked: it escaped the chain. */
  | 'escaped'
  /** A checkpoint's signature does not hold (edited or forged), or it names another key. */
  | 'checkpoint-forged'
  /** A checkpoint names a checkpoint before it that is gone. */
  | 'checkpoint-missing'
  /** The chain disagrees with a signed checkpoint: rewritten wholesale, or cut off below a signed point. */
  | 'checkpoint-mismatch';

export interface ChainReport {
  trail: ActivityTrail;
  whole: boolean;
  /** Links checked (the chain's length when whole). */
  linked: number;
  /** Of those, records retention destroyed (a stub in their place) or deleted, each under its disposal record. */
  destroyed: number;
  deleted: number;
  /** Record versions checked against the digests their linked activity records carry. */
  versions?: number;
  /** Records waiting to be linked. */
  pending: number;
  oldestPendingAt?: string;
  checkpoints: number;
  lastCheckpointAt?: string;
  /** The first break found. `at` names the record or link. */
  broken?: { reason: ChainBreak; at: string; detail: string };
}

/** Items per Query page: verification streams the trail a page at a time (constant memory but the checkpoints). */
const PAGE_SIZE = 100;

/** The pages of a trail list, read consistently (a link written a moment ago is part of what is verified). */
function pages(table: Dependencies['table'], query: Omit<QuerySpec, 'limit' | 'startKey' | 'consistent'>): AsyncGenerator<TableItem[]> {
  return eachPage(table, { ...query, consistent: true }, PAGE_SIZE);
}

const shortHash = (hash: unknown) => String(hash).slice(0, 12);

/** A batch read refuses the same key twice (two forged items may name one place). */
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

class Broken extends Error {
  constructor(
    readonly reason: ChainBreak,
    readonly at: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Verifies one trail of a tenant: the signed checkpoints (signature by the trusted key, each naming the one before),
 * every link in chain order (its hash, its previous hash, the record it names and that record's entry hash, or for a
 * record retention disposed of, the disposal record that accounts for it: disposed-records.ts), the
 * head, the chain against every checkpoint, and every record (linked where its link says, or waiting on the pending
 * index). Names the first break; counts the records still waiting. Reads strongly consistent pages.
 */
export async function verifyChain(
  deps: Pick<Dependencies, 'table' | 'keys'>,
  client: string,
  trail: ActivityTrail,
  options: { signingKeyId: string },
): Promise<ChainReport> {
  const { table } = deps;
  const chain = keys.activityChain;
  const readHead = async () => linkOfHead(await table.get(chain.head(trail, client), { consistent: true }));
  const report: ChainReport = { trail, whole: true, linked: 0, destroyed: 0, deleted: 0, pending: 0, checkpoints: 0 };
  try {
    const headBefore = await readHead();

    // Checkpoints first: few, and the link walk checks each link against what they vouch for.
    const vouched = new Map<number, { hash: string; at: string }>();
    let previousAt: string | null = null;
    for await (const page of pages(table, chain.checkpoints(trail, client))) {
      for (const item of page) {
        const content = claimedAuditCheckpoint(item);
        const at = `checkpoint ${chain.checkpointTimeOf(item.sk)}`;
        const placed = content !== undefined && item.sk === chain.checkpoint(trail, client, content.checkpoint_at).sk;
        if (!placed || content.client !== client || content.trail !== trail || !(await checkpointSignatureHolds(deps, content, options.signingKeyId))) {
          throw new Broken('checkpoint-forged', at, `${at} is not signed by the audit signing key (edited, moved or forged)`);
        }
        if (content.previous_checkpoint_at !== previousAt) {
          throw new Broken('checkpoint-missing', at, `${at} follows the checkpoint of ${String(content.previous_checkpoint_at)}, which is gone`);
        }
        previousAt = content.checkpoint_at;
        vouched.set(content.sequence, { hash: content.hash, at: content.checkpoint_at });
        report.checkpoints += 1;
        report.lastCheckpointAt = content.checkpoint_at;
      }
    }
    const genesisVouched = vouched.get(0);
    if (genesisVouched !== undefined && genesisVouched.hash !== GENESIS_HASH) {
      throw new Broken('checkpoint-mismatch', 'link #0', `the checkpoint of ${genesisVouched.at} signed an empty chain with another hash`);
    }

    let last: ChainLink = { sequence: 0, hash: GENESIS_HASH };
    for await (const page of pages(table, chain.links(trail, client))) {
      const records = new Map(
        (await table.batchGet(unique(page.flatMap((link) => claimedAuditLink(link)?.record ?? [])).map((sort) => chain.record(trail, client, sort)))).map((record) => [record.sk, record]),
      );
      // The disposal records that disposed records name (retention's deletions and destructions).
      const disposalKeys = [...records.values()].filter(isDisposed).flatMap((record) => disposalKeyOf(client, record) ?? []);
      const disposals = new Map((await table.batchGet(unique(disposalKeys.map((key) => key.sk)).map((sk) => ({ pk: keys.disposal.list(client).partition, sk })))).map((item) => [item.sk, item]));
      for (const link of page) {
        const expected = last.sequence + 1;
        const place = chain.placeOf(link.sk);
        if (Number.isNaN(place)) throw new Broken('reordered', `link ${link.sk.slice(0, 40)}`, `a link is stored under the key ${link.sk.slice(0, 40)}`);
        if (place !== expected) throw new Broken('missing', `link #${expected}`, `link #${expected} is missing (the next one is #${place})`);
        const claimed = claimedAuditLink(link);
        if (claimed === undefined) throw new Broken('edited', `link #${place}`, `link #${place} does not match its hash (a field was changed)`);
        const { hash: linkedHash, ...content } = claimed;
        if (content.sequence !== place || linkHash(content) !== linkedHash) {
          throw new Broken('edited', `link #${place}`, `link #${place} does not match its hash (a field was changed)`);
        }
        if (content.client !== client || content.trail !== trail) throw new Broken('reordered', `link #${place}`, `link #${place} belongs to another chain`);
        if (content.previous_hash !== last.hash) {
          throw new Broken('unlinked', `link #${place}`, `link #${place} does not follow link #${last.sequence} (one of them was replaced)`);
        }
        const name = `record #${place} (${content.record})`;
        const record = records.get(content.record);
        if (record === undefined) throw new Broken('missing', name, `${name} is missing: its link remains`);
        if (isDisposed(record)) {
          // Retention disposed of it: its content is checked against the disposal record it names instead.
          const disposal = disposals.get(disposalKeyOf(client, record)?.sk ?? '');
          const problem = disposalProblem(trail, record, content.entry_hash, disposal);
          if (problem !== undefined) throw new Broken(problem.missing ? 'missing' : 'edited', name, `${name} ${problem.detail}`);
          if (readAuditRecordMarks(record).retention_state === 'Destroyed') report.destroyed += 1;
          else report.deleted += 1;
        } else if (entryHash(record) !== content.entry_hash) {
          throw new Broken('edited', name, `${name} was changed after it was linked (a field was changed, added or removed)`);
        } else {
          // The record versions its call kept: each must still hash to the digest the (linked, hashed) record carries.
          const problem = await versionsProblem(table, record);
          if (problem !== undefined) throw new Broken('edited', name, `${name} kept ${problem}`);
          report.versions = (report.versions ?? 0) + versionCount(record);
        }
        const marks = readAuditRecordMarks(record);
        if (marks.sequence !== place || marks.chain_state !== 'linked') throw new Broken('reordered', name, `${name} says it is #${String(marks.sequence).slice(0, 20)}`);
        const signed = vouched.get(place);
        if (signed !== undefined && signed.hash !== linkedHash) {
          throw new Broken('checkpoint-mismatch', name, `the checkpoint of ${signed.at} signed link #${place} as ${shortHash(signed.hash)}…, the chain has ${shortHash(linkedHash)}…: it was rewritten`);
        }
        last = { sequence: place, hash: linkedHash };
        report.linked = place;
      }
    }

    if (last.sequence < (headBefore?.sequence ?? 0)) {
      const next = last.sequence + 1;
      throw new Broken('missing', `link #${next}`, `link #${next} is missing (the head names #${headBefore?.sequence ?? 0})`);
    }
    const headAfter = await readHead();
    if (headAfter === undefined && last.sequence > 0) throw new Broken('head-mismatch', `link #${last.sequence}`, 'the chain head is missing');
    if (headAfter !== undefined && last.sequence > headAfter.sequence) {
      throw new Broken('head-mismatch', `link #${headAfter.sequence + 1}`, `links after #${headAfter.sequence}, where the head says the chain ends`);
    }
    if (headAfter !== undefined && last.sequence === headAfter.sequence && last.hash !== headAfter.hash) {
      throw new Broken('head-mismatch', `link #${last.sequence}`, `the head's hash is not link #${last.sequence}'s`);
    }
    const highestVouched = Math.max(0, ...vouched.keys());
    if (highestVouched > last.sequence) {
      const at = vouched.get(highestVouched)?.at;
      throw new Broken('checkpoint-mismatch', `link #${last.sequence + 1}`, `the checkpoint of ${at} vouches for ${highestVouched} links, the chain has ${last.sequence}: its end was cut off`);
    }

    await checkRecords(deps, { client, trail }, last, { report, readHead });
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    report.whole = false;
    report.broken = { reason: error.reason, at: error.at, detail: error.detail };
  }
  return report;
}

/** Every record: linked where its link says, or waiting on the pending index; counts the waiting ones. */
async function checkRecords(
  deps: Pick<Dependencies, 'table'>,
  { client, trail }: { client: string; trail: ActivityTrail },
  last: ChainLink,
  { report, readHead }: { report: ChainReport; readHead: () => Promise<ChainLink | undefined> },
): Promise<void> {
  const chain = keys.activityChain;
  const pendingPartition = chain.pendingKeys(trail, client, '').gsi2pk;
  for await (const items of pages(deps.table, chain.records(trail, client))) {
    const page = items.map((item) => ({ sk: item.sk, ...readAuditRecordMarks(item) }));
    const claimed = page.filter((record) => record.chain_state === 'linked' || record.sequence !== undefined);
    // The place a record claims, when it is a sequence at all.
    const claimedPlace = (record: (typeof page)[number]) => (record.sequence !== undefined && Number.isSafeInteger(record.sequence) && record.sequence >= 1 ? record.sequence : undefined);
    const sequences = claimed.flatMap((record) => claimedPlace(record) ?? []);
    const links = new Map((await deps.table.batchGet(unique(sequences).map((sequence) => chain.link(trail, client, sequence)))).map((link) => [link.sk, link]));
    for (const record of page) {
      const name = `record ${record.sk}`;
      if (claimed.includes(record)) {
        const sequence = claimedPlace(record);
        if (sequence === undefined) throw new Broken('inserted', name, `${name} claims a place in the chain that is no sequence`);
        // Linked after the link walk passed: the head has moved past it since.
        if (sequence > last.sequence && ((await readHead())?.sequence ?? 0) >= sequence) continue;
        const stored = links.get(chain.link(trail, client, sequence).sk);
        const link = stored === undefined ? undefined : claimedAuditLink(stored);
        if (link === undefined || link.record !== record.sk) {
          throw new Broken('inserted', name, `${name} claims to be #${sequence}, but that link names ${stored === undefined ? 'no record' : 'another record'}`);
        }
      } else if ((record.chain_state === 'pending' || record.chain_state === 'open') && record.gsi2pk === pendingPartition && record.gsi2sk === record.sk) {
        report.pending += 1;
        const time = record.activity_time;
        if (time !== undefined && (report.oldestPendingAt === undefined || time < report.oldestPendingAt)) report.oldestPendingAt = time;
      } else {
        throw new Broken('escaped', name, `${name} is neither linked nor waiting to be linked`);
      }
    }
  }
}
