import type { PayloadType } from '#shared/constants/payloads.ts';
import { LEXICON_MESSAGE_TYPES, LEXICON_NOTES_TYPES, SAMPLING_TYPES, type SupervisionTextField } from '#shared/constants/supervision.ts';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import type { GroupFacts } from '#shared/permissions/evaluate.ts';
import { evaluateLexicon } from '#shared/supervision/lexicon/index.ts';
import { isSampled, samplingValue } from '#shared/supervision/sampling.ts';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { policyCovers } from '../policies/policy-scope.ts';
import type { PolicySet } from './policy-set.ts';

/** A recording as supervision records it on an item (what `recordHits` takes). */
export interface SupervisedRecording {
  readonly payload_reference: string;
  readonly payload_type: PayloadType;
  readonly payload_time: string;
  readonly device_reference?: string;
  readonly device_user_reference?: string;
  readonly group?: string;
}

/** The text a lexicon reads of a recording: a message's text or a recording's notes (absent: none to read). */
export interface RecordingText {
  readonly field: SupervisionTextField;
  readonly text: string;
}

/** What evaluation found: the hits, and the smallest review_days of the policies that hit (undefined: no hit). */
export interface Findings {
  readonly hits: SupervisionHit[];
  readonly reviewDays: number | undefined;
}

/**
 * Offsets kept per hit, and per recording over all its hits: the first ones in text order. A 64 KiB message can hold
 * thousands of matches of a common term, and an item (one DynamoDB item, at most 400 KB) must stay writable whatever
 * the text, or the recording's processing could never finish. A hit always keeps at least its first match.
 */
export const MATCHES_PER_HIT_MAX = 100;
export const MATCHES_PER_RECORDING_MAX = 2000;

const MESSAGE_TYPES = new Set<string>(LEXICON_MESSAGE_TYPES);
const NOTES_TYPES = new Set<string>(LEXICON_NOTES_TYPES);
const SAMPLED_TYPES = new Set<string>(SAMPLING_TYPES);

/** Which text a lexicon reads of a type: a message's own text, the notes of an interview, photo or video, or none. */
export function lexiconFieldOf(type: PayloadType): SupervisionTextField | undefined {
  if (MESSAGE_TYPES.has(type)) return 'text';
  if (NOTES_TYPES.has(type)) return 'notes';
  return undefined;
}

export const isSamplingType = (type: PayloadType): boolean => SAMPLED_TYPES.has(type);

/** The recording's sampling value for one sampling policy (its seed, its reference, the recording's reference). */
export function sampleValueOf(policy: Pick<SupervisionPolicyItem, 'policy_reference' | 'sampling_seed'>, payloadReference: string): number {
  return samplingValue(policy.sampling_seed ?? '', policy.policy_reference, payloadReference);
}

/**
 * Evaluates one recording against a policy set: each Lexicon term that matched its text outside the spans the Ignore
 * policies mark (only policies whose scope covers the recording apply, Ignore ones included), and each Sampling
 * policy covering it whose keyed value falls in its share. Offsets only: a hit never holds the text.
 */
export function evaluateRecording(
  set: PolicySet,
  recording: { readonly reference: SupervisedRecording; readonly group: GroupFacts; readonly text: RecordingText | undefined },
  raisedAt: string,
): Findings {
  const { reference: facts, group, text } = recording;
  const covered = { payload_type: facts.payload_type, device_user_reference: facts.device_user_reference, group };
  const hits: SupervisionHit[] = [];
  const hitting = new Set<SupervisionPolicyItem>();
  if (text !== undefined && text.text.length > 0 && set.lexicon.length > 0) {
    const applying = set.lexicon.filter((policy) => policyCovers(policy, covered));
    if (applying.some((policy) => policy.kind === 'Lexicon')) {
      const byReference = new Map(applying.map((policy) => [policy.policy_reference, policy]));
      let room = MATCHES_PER_RECORDING_MAX;
      for (const hit of evaluateLexicon(set.compiled, text.text, { policies: new Set(byReference.keys()) })) {
        const kept = hit.matches.slice(0, Math.max(1, Math.min(MATCHES_PER_HIT_MAX, room))).map(({ start, end }) => ({ start, end }));
        room -= kept.length;
        hits.push({ policy_reference: hit.policy_reference, kind: 'Lexicon', term: hit.term, field: text.field, matches: kept, raised_at: raisedAt });
        const policy = byReference.get(hit.policy_reference);
        if (policy !== undefined) hitting.add(policy);
      }
    }
  }
  if (isSamplingType(facts.payload_type)) {
    for (const policy of set.sampling) {
      if (!policyCovers(policy, covered)) continue;
      const value = sampleValueOf(policy, facts.payload_reference);
      if (!isSampled(value, policy.sample_percent ?? 0)) continue;
      hits.push({ policy_reference: policy.policy_reference, kind: 'Sampling', matches: [], sample_value: value, raised_at: raisedAt });
      hitting.add(policy);
    }
  }
  const days = [...hitting].map((policy) => policy.review_days);
  return { hits, reviewDays: days.length === 0 ? undefined : Math.min(...days) };
}
