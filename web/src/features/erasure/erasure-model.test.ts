import { describe, expect, it } from 'vitest';
import type { ErasureKindOutcome, ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import {
  dayOf,
  deviceUserName,
  erasedAndKeptBars,
  erasedSpan,
  isRunning,
  keptWords,
  personWords,
  progressOf,
  ruleWords,
  requesterWords,
  reviewOfferFor,
  totalsOf,
} from './erasure-model.ts';

const gps: ErasureKindOutcome = {
  kind: 'GpsFixes',
  record_type: 'GpsData',
  found: 40,
  to_erase: 30,
  erased: 0,
  kept: [{ exception: 'LegalObligation', article: '17(3)(b)', count: 10, rule: 'GPS fixes are kept 1 year from when they were recorded', kept_until: '2027-03-04T10:00:00.000Z' }],
};
const recordings: ErasureKindOutcome = {
  kind: 'Recordings',
  record_type: 'PayloadData',
  found: 5,
  to_erase: 0,
  erased: 0,
  kept: [{ exception: 'LegalHold', article: '17(3)(e)', count: 5, holds: [{ target_type: 'DeviceUser', target: 'du-chloe' }] }],
};
const logs: ErasureKindOutcome = { kind: 'DeviceLogs', record_type: 'DeviceActivityData', found: 0, to_erase: 0, erased: 0, kept: [] };

const request: ErasureRequest = {
  client: 'demo',
  erasure_request_reference: '01M8K836WT6A0AAGFM52CS3R4A',
  device_user_reference: 'du-chloe',
  device_user_name: 'Chloe Carter',
  requester: { type: 'DataSubject' },
  received_at: '2026-11-20T00:00:00.000Z',
  channel: 'Email',
  erasure_state: 'Decided',
  outcomes: [gps, recordings, logs],
  created_at: '2026-11-29T09:00:00.000Z',
  created_by: 'u-dana',
};

describe('an erasure request in words', () => {
  it('says who asked, about whom, and on which day (the recorded UTC day, wherever the browser is)', () => {
    expect(requesterWords({ type: 'DataSubject' })).toBe('The person themself');
    expect(requesterWords({ type: 'Representative', name: 'Sam Lee' })).toBe('A representative: Sam Lee');
    expect(personWords('du-chloe', 'Chloe Carter')).toBe('Chloe Carter (du-chloe)');
    expect(personWords('du-chloe', undefined)).toBe('du-chloe');
    expect(personWords('du-chloe', ' ')).toBe('du-chloe');
    expect(deviceUserName({ first_name: 'Chloe', surname: 'Carter' })).toBe('Chloe Carter');
    expect(deviceUserName({ first_name: '', surname: undefined })).toBeUndefined();
    expect(dayOf('2026-11-20T00:00:00.000Z')).toBe('20 Nov 2026');
  });

  it('names the exception in plain words: a hold for claims (e), a legal obligation until its date (b)', () => {
    expect(keptWords(recordings.kept[0]!)).toBe('5 kept: needed for legal claims, under the legal hold on device user du-chloe (GDPR Art 17(3)(e)). Kept while the hold lasts.');
    expect(keptWords(gps.kept[0]!)).toBe('10 kept: the law requires keeping them until 4 Mar 2027 (GDPR Art 17(3)(b)). GPS fixes are kept 1 year from when they were recorded.');
    // The rule as the decision states it, led by the record type's name rather than its wire value.
    expect(ruleWords('DeviceUserData: deleted 2923 days, destroyed 3013 days after its time', 'DeviceUserData')).toBe('Device users: deleted 2923 days, destroyed 3013 days after its time');
    expect(keptWords({ exception: 'LegalObligation', article: '17(3)(b)', count: 1, rule: 'GpsData: deleted 365 days after its time' }, 'GpsData')).toBe(
      '1 kept: the law requires keeping them (GDPR Art 17(3)(b)). GPS fixes: deleted 365 days after its time.',
    );
    expect(keptWords({ exception: 'LegalHold', article: '17(3)(e)', count: 2, holds: [{ target_type: 'DeviceUser', target: 'du-chloe' }], held_after_decision: true })).toContain(
      'placed after the decision; it kept them when erasure ran',
    );
  });
});

describe('the decision as a picture', () => {
  it('draws one bar per kind with records: to be erased beside kept; an empty kind is left out', () => {
    expect(erasedAndKeptBars(request)).toEqual([
      { label: 'GPS fixes', values: [30, 10] },
      { label: 'Recordings', values: [0, 5] },
    ]);
    expect(totalsOf(request)).toEqual({ erased: 30, kept: 15 });
  });

  it('counts what was erased once the run is done, not what was marked', () => {
    const done: ErasureRequest = { ...request, erasure_state: 'Completed', outcomes: [{ ...gps, erased: 28, erased_from: '2025-01-03T08:00:00.000Z', erased_to: '2025-02-02T18:00:00.000Z' }] };
    expect(erasedAndKeptBars(done)).toEqual([{ label: 'GPS fixes', values: [28, 10] }]);
    expect(erasedSpan(done.outcomes[0]!)).toBe('from 3 Jan 2025 to 2 Feb 2025');
    expect(erasedSpan(gps)).toBe('');
  });
});

describe('progress while a job runs', () => {
  it('shows the walk and the erasure as a share of the known total, and an open bar before the total is known', () => {
    expect(isRunning({ erasure_state: 'Deciding' })).toBe(true);
    expect(isRunning({ erasure_state: 'Decided' })).toBe(false);
    expect(progressOf({ erasure_state: 'Deciding', progress: { phase: 'Deciding', done: 120, total: 400 } })).toEqual({ label: 'Deciding: 120 of 400 records looked at', percent: 30 });
    expect(progressOf({ erasure_state: 'Erasing', progress: { phase: 'Erasing', done: 0, total: 0 } })).toEqual({ label: 'Erasing: 0 of 0 records erased', percent: 100 });
    expect(progressOf({ erasure_state: 'Erasing', progress: { phase: 'Erasing', done: 7 } })).toEqual({ label: 'Erasing: 7 records erased so far', percent: undefined });
    expect(progressOf({ erasure_state: 'Recorded', progress: undefined })).toEqual({ label: 'Deciding: starting', percent: undefined });
    expect(progressOf({ erasure_state: 'Completed', progress: { phase: 'Erasing', done: 7, total: 7 } })).toBeUndefined();
  });
});

describe('who may review', () => {
  it('offers the review to a second person who may review, and says why to the recorder and to a role without it', () => {
    expect(reviewOfferFor(request, 'u-jordan', true)).toEqual({ kind: 'offer' });
    const own = reviewOfferFor(request, 'u-dana', true);
    expect(own.kind).toBe('refused');
    expect(own.kind === 'refused' && own.why).toMatch(/^You recorded this request, so you cannot review it/);
    expect(reviewOfferFor(request, 'u-jordan', false)).toMatchObject({ kind: 'refused', why: expect.stringMatching(/^Your roles do not allow/) });
    expect(reviewOfferFor({ ...request, erasure_state: 'Deciding' }, 'u-jordan', true)).toEqual({ kind: 'none' });
    expect(reviewOfferFor({ ...request, erasure_state: 'Completed' }, 'u-jordan', true)).toEqual({ kind: 'none' });
  });
});
