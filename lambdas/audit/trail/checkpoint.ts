import type { Dependencies } from '../../core/dependencies.ts';
import {
  auditCheckpointToItem,
  claimedAuditCheckpoint,
  type AuditCheckpointContent,
  type AuditCheckpointItem,
} from '../../core/store/entities/audit-chain.ts';
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

/** What a checkpoint signs (the hash is GENESIS_HASH for an empty chain). */
export type CheckpointContent = AuditCheckpointContent;

/** A head that has not moved is signed again only this often (a checkpoint also proves the chain was there then). */
export const QUIET_CHECKPOINT_MS = 24 * 60 * 60_000;

export const checkpointMessage = (content: CheckpointContent): Uint8Array => Buffer.from(canonicalJson({ ...content }), 'utf8');

/** The newest checkpoint of a trail, if any (undefined too when it does not read as a checkpoint: it signs nothing). */
export async function latestCheckpoint(table: Dependencies['table'], trail: ActivityTrail, client: string): Promise<AuditCheckpointItem | undefined> {
  const page = await table.query({ ...keys.activityChain.checkpoints(trail, client), descending: true, limit: 1, consistent: true });
  return page.items[0] === undefined ? undefined : claimedAuditCheckpoint(page.items[0]);
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
    const age = now.getTime() - Date.parse(previous.checkpoint_at);
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
    previous_checkpoint_at: previous?.checkpoint_at ?? null,
    key_id: signingKeyId,
  };
  const { signature, algorithm } = await deps.keys.sign(signingKeyId, checkpointMessage(content));
  await deps.table.put(auditCheckpointToItem({ ...content, signature: Buffer.from(signature).toString('base64'), algorithm }), {
    condition: { kind: 'item-not-exists' },
  });
  return true;
}

/**
 * Whether a stored checkpoint is signed, over its own content, by the signing key the verifier trusts (a checkpoint
 * naming another key proves nothing: whoever rewrote the table may hold a key of their own). A key service that
 * cannot be reached throws; that is no verdict.
 */
export async function checkpointSignatureHolds(deps: Pick<Dependencies, 'keys'>, checkpoint: AuditCheckpointItem, trustedKeyId: string): Promise<boolean> {
  const { signature, algorithm, ...content } = checkpoint;
  if (content.key_id !== trustedKeyId) return false;
  return deps.keys.verifySignature(trustedKeyId, checkpointMessage(content), Buffer.from(signature, 'base64'), algorithm);
}
