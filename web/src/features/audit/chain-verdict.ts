import type { ChainState } from '#shared/contract/entities/activity.ts';
import { formatDateTime } from '../../lib/format.ts';

/** Records usually wait seconds to be linked; waiting longer than this is worth a warning. */
export const PENDING_WARN_MS = 10 * 60_000;

/**
 * What a trail's chain state means for a compliance officer: everything linked, linking under way, or records
 * waiting unusually long (the sequencer may be stuck), with the sentence to show.
 */
export function chainVerdict(state: ChainState, now: number): { label: string; colour: string; sentence: string } {
  const checkpoint = state.last_checkpoint_at === null ? undefined : formatDateTime(state.last_checkpoint_at);
  if (state.pending_count === 0) {
    return {
      label: 'Up to date',
      colour: 'teal',
      sentence:
        state.linked_count === 0
          ? 'No records yet.'
          : `Every record is linked${checkpoint === undefined ? '' : `; the chain was last signed ${checkpoint}`}.`,
    };
  }
  const oldest = state.oldest_pending_at === null ? undefined : Date.parse(state.oldest_pending_at);
  const stale = oldest !== undefined && !Number.isNaN(oldest) && now - oldest > PENDING_WARN_MS;
  return stale
    ? { label: 'Waiting too long', colour: 'red', sentence: 'Some records have waited more than 10 minutes to be linked. They are stored; linking has not caught up.' }
    : { label: 'Linking', colour: 'yellow', sentence: 'New records are being linked into the chain.' };
}
