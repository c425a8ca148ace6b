import type { SupervisionApplyState, SupervisionPolicyKind } from '#shared/constants/supervision.ts';

/** What each kind of policy does, as the editor's kind choice and the list say it. */
export const POLICY_KIND_LABELS: Record<SupervisionPolicyKind, string> = {
  Lexicon: 'Lexicon (raise on terms)',
  Ignore: 'Ignore (known noise)',
  Sampling: 'Sampling (a share per person a day)',
};

export const APPLY_STATE_LABELS: Record<SupervisionApplyState, string> = { Running: 'Running', Completed: 'Completed', Failed: 'Failed' };
