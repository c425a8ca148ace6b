import { describe, expect, it } from 'vitest';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { rerunOffer, STOPPED_AFTER_MS } from './rerun-offer.ts';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const transfer = (state: Transferable['transfer_state'], progressAgoMs?: number): Transferable => ({
  transfer_id: '01JD0000000000000000000000',
  transfer_config_reference: 'Nightly archive',
  transfer_type: 'Payload',
  created_at: '2026-11-24T09:00:00.000Z',
  transfer_state: state,
  transfers: [],
  related_payloads: [],
  payload_count: 3,
  ...(progressAgoMs === undefined ? {} : { progress_at: new Date(NOW.getTime() - progressAgoMs).toISOString() }),
});

describe('running a transfer again', () => {
  it('is offered for a failed or partly failed transfer, never for one that succeeded', () => {
    expect(rerunOffer(transfer('Failed'), NOW)?.label).toBe('Run again');
    expect(rerunOffer(transfer('PartialFail'), NOW)?.label).toBe('Run again');
    expect(rerunOffer(transfer('Succeeded'), NOW)).toBeUndefined();
  });

  it('offers to resume a moving transfer only once its job has gone quiet', () => {
    expect(rerunOffer(transfer('InProgress', 60_000), NOW)).toBeUndefined();
    expect(rerunOffer(transfer('InProgress', STOPPED_AFTER_MS + 1), NOW)?.label).toBe('Resume');
    // No progress recorded: counted from its creation, three hours ago.
    expect(rerunOffer(transfer('Pending'), NOW)?.label).toBe('Resume');
  });
});
