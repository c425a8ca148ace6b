import type { Dependencies } from '../../core/dependencies.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { readAuditRecordMarks } from '../../core/store/entities/audit-chain.ts';
import { eachPage } from '../../core/store/paging.ts';
import { GENESIS_HASH, linkOfHead } from './activity-chain.ts';
import { latestCheckpoint } from './checkpoint.ts';

/** The portal's view of one trail's chain (`GET activities/chain`, the contract's ChainState). */
export interface TrailState {
  linked_count: number;
  pending_count: number;
  head_sequence: number;
  head_hash: string;
  last_checkpoint_at: string | null;
  oldest_pending_at: string | null;
}

/** Pending entries read per page while counting (the sequencer keeps the index short; this bounds a backlog's cost). */
const COUNT_PAGE = 1_000;

/**
 * One trail's state from three small reads and the pending index: the head (linked count, hash), the newest
 * checkpoint, and the pending index counted page by page (oldest first, so its first item is the oldest waiting).
 */
export async function trailState(deps: Pick<Dependencies, 'table'>, trail: ActivityTrail, client: string): Promise<TrailState> {
  const { table } = deps;
  const [head, checkpoint] = await Promise.all([
    table.get(keys.activityChain.head(trail, client)).then(linkOfHead),
    latestCheckpoint(table, trail, client),
  ]);
  let pending = 0;
  let oldest: string | null = null;
  for await (const page of eachPage(table, keys.activityChain.pending(trail, client), COUNT_PAGE)) {
    if (oldest === null && page[0] !== undefined) oldest = readAuditRecordMarks(page[0]).activity_time ?? null;
    pending += page.length;
  }
  return {
    linked_count: head?.sequence ?? 0,
    pending_count: pending,
    head_sequence: head?.sequence ?? 0,
    head_hash: head?.hash ?? GENESIS_HASH,
    last_checkpoint_at: checkpoint?.checkpoint_at ?? null,
    oldest_pending_at: oldest,
  };
}
