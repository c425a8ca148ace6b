import type { Dependencies } from '#core/dependencies.ts';
import { jobActor } from '#core/auth/actor.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { recordHits } from '../items/record-hits.ts';
import { groupFactsOf } from '../policies/policy-scope.ts';
import { evaluateRecording, lexiconFieldOf, type RecordingText, type SupervisedRecording } from './evaluate-recording.ts';
import { tenantPolicySet } from './policy-set.ts';
import { messageText, notesOf } from './recording-text.ts';

/** Who raises items found while processing, as history entries name it. */
export const PROCESSING_SUPERVISION_ACTOR = jobActor('payload-processing');

export type SuperviseDependencies = Pick<Dependencies, 'table' | 'clock' | 'blobs'>;

/** The recording as an item records it. */
export function supervisedRecordingOf(payload: PayloadItem): SupervisedRecording {
  return {
    payload_reference: payload.payload_reference,
    payload_type: payload.payload_type,
    payload_time: payload.payload_time ?? payload.created_at ?? '',
    device_reference: payload.device_reference,
    ...(payload.device_user_reference === undefined ? {} : { device_user_reference: payload.device_user_reference }),
    ...(payload.group === undefined || payload.group.length === 0 ? {} : { group: payload.group }),
  };
}

/**
 * Supervision of a recording as processing finishes it (called once its processed object is written, before it is
 * marked Processed): the tenant's enabled policies covering it read its text (a message's, bounded) or its notes (from
 * the meta processing just opened), and sampling policies draw it; whatever they find goes to the review queue.
 *
 * Nothing best-effort: an error here fails the processing run, which is retried, and the recording is not Processed
 * until its hits are recorded. Recording the same hits again changes nothing (recordHits), so a redelivered or retried
 * run adds no duplicate.
 */
export async function superviseProcessed(deps: SuperviseDependencies, tenant: string, payload: PayloadItem, meta: Record<string, unknown>): Promise<number> {
  const set = await tenantPolicySet(deps, tenant);
  if (set.lexicon.length === 0 && set.sampling.length === 0) return 0;
  const field = lexiconFieldOf(payload.payload_type);
  let text: RecordingText | undefined;
  if (set.lexicon.length > 0 && field !== undefined) {
    const read = field === 'text' ? await messageText(deps, tenant, payload) : notesOf(meta);
    text = read === undefined ? undefined : { field, text: read };
  }
  const recording = supervisedRecordingOf(payload);
  const group = await groupFactsOf(deps, tenant, recording.group);
  const findings = evaluateRecording(set, { reference: recording, group, text }, deps.clock.now().toISOString());
  if (findings.hits.length === 0 || findings.reviewDays === undefined) return 0;
  const recorded = await recordHits(deps, tenant, { recording, hits: findings.hits, reviewDays: findings.reviewDays, actor: PROCESSING_SUPERVISION_ACTOR });
  return recorded.added;
}
