import { describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { periodRange, serviceSummaries, typeTotals } from './overview-model.ts';

describe('periodRange', () => {
  it('covers the last N UTC days, today included, across a month end', () => {
    expect(periodRange(7, new Date('2026-03-03T23:30:00Z'))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(periodRange(1, new Date('2026-03-03T00:00:00Z'))).toEqual({ from: '2026-03-03', to: '2026-03-03' });
  });
});

describe('serviceSummaries', () => {
  it('folds type counts into the six screens, calls and messages by their groups', () => {
    const counts = PAYLOAD_TYPES.map((type) => ({ Call: 5, AbortedCall: 1, BlockedCall: 2, SMS: 9, MMS: 0, RCS: 1, Photo: 4 })[type as string] ?? 0);
    const summaries = serviceSummaries(counts);
    expect(summaries.map((summary) => [summary.kind, summary.total])).toEqual([
      ['calls', 8],
      ['messages', 10],
      ['interviews', 0],
      ['photos', 4],
      ['videos', 0],
      ['diagnostics', 0],
    ]);
    expect(summaries[0]?.parts).toEqual([
      { type: 'Call', count: 5 },
      { type: 'AbortedCall', count: 1 },
      { type: 'BlockedCall', count: 2 },
    ]);
  });

  it('leaves a total unknown while any of its counts is still loading', () => {
    const counts = PAYLOAD_TYPES.map((type) => (type === 'SMS' ? undefined : 1));
    const messages = serviceSummaries(counts).find((summary) => summary.kind === 'messages');
    expect(messages?.total).toBeUndefined();
  });
});

describe('typeTotals', () => {
  it('adds the metric rows of every device and day per type, in PAYLOAD_TYPES order', () => {
    const totals = typeTotals([{ counts: { Call: 2, SMS: 1 } }, { counts: { Call: 3 } }, { counts: {} }]);
    expect(totals[PAYLOAD_TYPES.indexOf('Call')]).toBe(5);
    expect(totals[PAYLOAD_TYPES.indexOf('SMS')]).toBe(1);
    expect(totals).toHaveLength(PAYLOAD_TYPES.length);
  });
});
