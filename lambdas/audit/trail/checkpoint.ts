import type { Dependencies } from '../../core/dependencies.ts';
import type { TableItem } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { CHAIN_VERSION, GENESIS_HASH, linkOfHead } from './activity-chain.ts';
import { canonicalJson } from './canonical-json.ts';

/**
 * Signed checkpoints of a trail's chain head (the signed tree heads of Certificate Transparency): `(sequence, hash,
 * time)` signed with a key no writer of the table holds (KMS; the local key service on one machine). Anyone able to
 * write the table can rewrite records, links and head consistently, but not sign: a checkpoint that no longer
 * matches the chain at its sequence exposes a wholesale rewrite or a cut-off end. Each checkpoint names the one
 * before it, so deleting one from the middle shows too.
 */

/** What a checkpoint signs. */
export interface CheckpointContent {
  chain_version: number;
  client: string;
  trail: ActivityTrail;
  /** Links in the chain when signed (0: empty). */
  sequence: number;
  /** The head's hash then (GENESIS_HASH when empty). */
  hash: string;
  checkpoint_at: string;
  /** `checkpoint_at` of the checkpoint before, or null for the first. */
  previous_checkpoint_at: string | null;
  key_id: string;
}

/** A head that has not moved is signed again only this often (a checkpoint also proves the chain was there then). */
export const QUIET_CHECKPOINT_MS = 24 * 60 * 60_000;

export const checkpointMessage = (content: CheckpointContent): Uint8Array => Buffer.from(canonicalJson({ ...content }), 'utf8');

/** The content a stored checkpoint claims (as stored: a damaged field fails the signature). */
export function checkpointContentOf(item: TableItem): CheckpointContent {
  return {
    chain_version: item.chain_version as number,
    client: item.client as string,
    trail: item.trail as ActivityTrail,
    sequence: item.sequence as number,
    hash: item.hash as string,
    checkpoint_at: item.checkpoint_at as string,
    previous_checkpoint_at: (item.previous_checkpoint_at ?? null) as string | null,
    key_id: item.key_id as string,
  };
}

/** The newest checkpoint of a trail, if any. */
export async function latestCheckpoint(table: Dependencies['table'], trail: ActivityTrail, client: string): Promise<TableItem | undefined> {
  const page = await table.query({ ...keys.activityChain.checkpoints(trail, client), descending: true, limit: 1, consistent: true });
  return page.items[0];
}

/**
 * Signs the trail's current head, unless the newest checkpoint already covers it and is recent. Answers whether one
 * was written. Run by the audit-sequencer job after linking (lib/config/job-schedules.ts).
 */
export async function writeCheckpoint(
  deps: Pick<Dependencies, 'table' | 'clock' | 'keys'>,
  trail: ActivityTrail,
  client: string,
  signingKeyId: string,
): Promise<boolean> {
  const head = linkOfHead(await deps.table.get(keys.activityChain.head(trail, client), { consistent: true })) ?? { sequence: 0, hash: GENESIS_HASH };
  const previous = await latestCheckpoint(deps.table, trail, client);
  const now = deps.clock.now();
  if (previous !== undefined && previous.sequence === head.sequence) {
    const age = now.getTime() - Date.parse(String(previous.checkpoint_at));
    if (age < QUIET_CHECKPOINT_MS) return false;
  }
  if (previous === undefined && head.sequence === 0) return false; // nothing recorded yet: nothing to vouch for
  const content: CheckpointContent = {
    chain_version: CHAIN_VERSION,
    client,
    trail,
    sequence: head.sequence,
    hash: head.hash,
    checkpoint_at: now.toISOString(),
    previous_checkpoint_at: typeof previous?.checkpoint_at === 'string' ? previous.checkpoint_at : null,
    key_id: signingKeyId,
  };
  const { signature, algorithm } = await deps.keys.sign(signingKeyId, checkpointMessage(content));
  await deps.table.put(
    { ...keys.activityChain.checkpoint(trail, client, content.checkpoint_at), ...content, signature: Buffer.from(signature).toString('base64'), algorithm },
    { condition: { kind: 'item-not-exists' } },
  );
  return true;
}

/**
 * Whether a stored checkpoint is signed, over its own content, by the signing key the verifier trusts (a checkpoint
 * naming another key proves nothing: whoever rewrote the table may hold a key of their own). A key service that
 * cannot be reached throws; that is no verdict.
 */
export async function checkpointSignatureHolds(deps: Pick<Dependencies, 'keys'>, item: TableItem, trustedKeyId: string): Promise<boolean> {
  const content = checkpointContentOf(item);
  if (typeof item.signature !== 'string' || typeof item.algorithm !== 'string' || content.key_id !== trustedKeyId) return false;
  return deps.keys.verifySignature(trustedKeyId, checkpointMessage(content), Buffer.from(item.signature, 'base64'), item.algorithm);
}
