import { describe, expect, it } from 'vitest';
import { interleaveGaps, isGapRow, type GapRow } from './gap-rows.ts';

interface Row {
  reference: string;
  time?: string;
  thread?: string;
}

const row = (reference: string, time: string | undefined, thread?: string): Row => ({ reference, ...(time === undefined ? {} : { time }), ...(thread === undefined ? {} : { thread }) });
const gap = (key: string, time: string, thread?: string): GapRow => ({ gap_key: key, time, text: `Missing ${key}`, ...(thread === undefined ? {} : { thread_id: thread }) });
const names = (rows: readonly (Row | GapRow)[]) => rows.map((entry) => (isGapRow(entry) ? `gap:${entry.gap_key}` : entry.reference));
const byTime = { timeOfRow: (entry: Row) => entry.time };

describe('interleaveGaps', () => {
  it('places each gap where its record would have been in a newest-first list', () => {
    const rows = [row('r1', '2026-11-20T12:00:00Z'), row('r2', '2026-11-20T10:00:00Z'), row('r3', '2026-11-19T09:00:00Z')];
    const gaps = [gap('a', '2026-11-20T11:00:00Z'), gap('b', '2026-11-20T13:00:00Z'), gap('c', '2026-11-18T08:00:00Z')];
    expect(names(interleaveGaps(rows, gaps, { ...byTime, hasMore: false }))).toEqual(['gap:b', 'r1', 'gap:a', 'r2', 'r3', 'gap:c']);
  });

  it('keeps several gaps between the same two records newest first', () => {
    const rows = [row('r1', '2026-11-20T12:00:00Z'), row('r2', '2026-11-20T08:00:00Z')];
    const gaps = [gap('older', '2026-11-20T09:00:00Z'), gap('newer', '2026-11-20T11:00:00Z'), gap('last', '2026-11-20T07:00:00Z'), gap('later', '2026-11-20T06:00:00Z')];
    expect(names(interleaveGaps(rows, gaps, { ...byTime, hasMore: false }))).toEqual(['r1', 'gap:newer', 'gap:older', 'r2', 'gap:last', 'gap:later']);
  });

  it('holds back a gap older than every loaded record while more pages remain, and shows it once the list is whole', () => {
    const rows = [row('r1', '2026-11-20T12:00:00Z'), row('r2', '2026-11-20T10:00:00Z')];
    const gaps = [gap('inside', '2026-11-20T11:00:00Z'), gap('beyond', '2026-11-20T09:00:00Z')];
    expect(names(interleaveGaps(rows, gaps, { ...byTime, hasMore: true }))).toEqual(['r1', 'gap:inside', 'r2']);
    expect(names(interleaveGaps(rows, gaps, { ...byTime, hasMore: false }))).toEqual(['r1', 'gap:inside', 'r2', 'gap:beyond']);
  });

  it('lists the gaps alone, newest first, when no record is shown', () => {
    const gaps = [gap('a', '2026-11-19T11:00:00Z'), gap('b', '2026-11-20T11:00:00Z')];
    expect(names(interleaveGaps([] as Row[], gaps, { ...byTime, hasMore: false }))).toEqual(['gap:b', 'gap:a']);
  });

  it('places a missing message within its thread when the thread is shown, by time among its messages', () => {
    // Grouped by thread: thread t1's messages, then thread t2's (each newest first).
    const rows = [row('t1-new', '2026-11-20T12:00:00Z', 't1'), row('t1-old', '2026-11-20T08:00:00Z', 't1'), row('t2-new', '2026-11-20T11:00:00Z', 't2'), row('t2-old', '2026-11-20T07:00:00Z', 't2')];
    const gaps = [gap('in-t2', '2026-11-20T09:00:00Z', 't2'), gap('t1-oldest', '2026-11-20T06:00:00Z', 't1'), gap('no-thread-shown', '2026-11-20T10:00:00Z', 't9')];
    const placed = interleaveGaps(rows, gaps, { ...byTime, hasMore: false, sameGroup: (entry, missing) => entry.thread === missing.thread_id });
    expect(names(placed)).toEqual(['t1-new', 'gap:no-thread-shown', 't1-old', 'gap:t1-oldest', 't2-new', 'gap:in-t2', 't2-old']);
  });

  it('ignores records without a time when finding a place, and drops a gap whose time is unreadable', () => {
    const rows = [row('untimed', undefined), row('r1', '2026-11-20T10:00:00Z')];
    const gaps = [gap('a', '2026-11-20T09:00:00Z'), gap('bad', 'not a time')];
    expect(names(interleaveGaps(rows, gaps, { ...byTime, hasMore: false }))).toEqual(['untimed', 'r1', 'gap:a']);
  });
});
