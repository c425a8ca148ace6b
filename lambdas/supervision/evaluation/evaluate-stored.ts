import type { PayloadItem } from '#core/store/entities/payload.ts';
import type { GroupFacts } from '#shared/permissions/evaluate.ts';
import { policyCovers } from '../policies/policy-scope.ts';
import { supervisedRecordingOf } from './at-processing.ts';
import { evaluateRecording, lexiconFieldOf, type Findings, type SupervisedRecording } from './evaluate-recording.ts';
import type { PeriodDependencies } from './period.ts';
import type { PolicySet } from './policy-set.ts';
import { storedRecordingText } from './recording-text.ts';

/**
 * Evaluates a stored recording (preview and apply): its text is read only when a Lexicon policy of the set covers it,
 * so a period of calls costs no object reads. `only` keeps the hits of one policy (the one previewed or applied; the
 * tenant's Ignore policies are in the set to suppress, not to raise).
 */
export async function evaluateStored(
  deps: PeriodDependencies,
  tenant: string,
  evaluation: { set: PolicySet; payload: PayloadItem; group: GroupFacts; only: string; raisedAt: string },
): Promise<{ recording: SupervisedRecording; findings: Findings }> {
  const { set, payload, group } = evaluation;
  const recording = supervisedRecordingOf(payload);
  const covered = { payload_type: payload.payload_type, device_user_reference: payload.device_user_reference, group };
  const readsText =
    lexiconFieldOf(payload.payload_type) !== undefined &&
    set.lexicon.some((policy) => policy.kind === 'Lexicon' && policy.policy_reference === evaluation.only && policyCovers(policy, covered));
  const text = readsText ? await storedRecordingText(deps, tenant, payload) : undefined;
  const all = evaluateRecording(set, { reference: recording, group, text }, evaluation.raisedAt);
  const hits = all.hits.filter((hit) => hit.policy_reference === evaluation.only);
  const policy = [...set.lexicon, ...set.sampling].find((candidate) => candidate.policy_reference === evaluation.only);
  return { recording, findings: { hits, reviewDays: hits.length === 0 ? undefined : policy?.review_days } };
}
