import { describe, expect, it } from 'vitest';
import type { Role } from '#shared/contract/entities/roles.ts';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { jobActor } from '#core/auth/actor.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { listItems } from './list-items.ts';
import { recordHits } from './record-hits.ts';
import { OWN_REVIEW, readItemDetail, reviewItem, reviewItems } from './review-items.ts';

const T0 = new Date('2026-01-10T12:00:00.000Z');
const RAISER = jobActor('payload-processing');

const reviewer = (conditions: unknown[] = [], types = ['Call', 'SMS']) =>
  ({ role_reference: 'reviewer', permissions: [{ actions_matching: 'supervision:*', conditions }], payload_types: types, cidr_ranges: [], is_system: false }) as unknown as Role;

const person = (reference: string, email?: string): UserPrincipal => ({ kind: 'user', subject: reference, email, name: reference.toUpperCase(), client: 'demo', groups: [], tokenIssuer: 'test' });

function setup() {
  const table = createMemoryTable();
  const clock = { time: T0, now: () => clock.time };
  const deps = { table, clock, cursors: createCursorCodec('s'.repeat(32)) };
  const as = (principal: UserPrincipal, action: string, role = reviewer()) =>
    tenantCaller(deps, 'demo', createAccessContext({ roles: [role], ip: undefined, isClientApp: false }), { action, principal });
  return { table, clock, deps, as };
}

const lexiconHit = (policy: string, term: string): SupervisionHit => ({ policy_reference: policy, kind: 'Lexicon', term, field: 'text', matches: [{ start: 0, end: term.length }], raised_at: T0.toISOString() });

async function raise(deps: ReturnType<typeof setup>['deps'], reference: string, extra: { group?: string; type?: 'Call' | 'SMS' | 'Photo'; deviceUser?: string; hits?: SupervisionHit[] } = {}) {
  return recordHits(deps, 'demo', {
    recording: {
      payload_reference: reference,
      payload_type: extra.type ?? 'SMS',
      payload_time: '2026-01-09T08:00:00.000Z',
      device_reference: 'dev-1',
      ...(extra.deviceUser === undefined ? {} : { device_user_reference: extra.deviceUser }),
      ...(extra.group === undefined ? {} : { group: extra.group }),
    },
    hits: extra.hits ?? [lexiconHit('guarantee', 'guarantee')],
    reviewDays: 7,
    actor: RAISER,
  });
}

describe('recording hits', () => {
  it('creates one Open item per recording with a raise entry, and adds only new hits', async () => {
    const { deps, as, table } = setup();
    await table.put({ ...keys.deviceUser.item('demo', 'du-1'), device_user_reference: 'du-1', is_active: true, first_name: 'Sam', surname: 'Seller', email: 'sam@demo.test' });
    expect(await raise(deps, 'P1', { deviceUser: 'du-1' })).toEqual({ raised: true, added: 1 });
    expect(await raise(deps, 'P1', { deviceUser: 'du-1' })).toEqual({ raised: false, added: 0 });
    expect(await raise(deps, 'P1', { deviceUser: 'du-1', hits: [lexiconHit('guarantee', 'guarantee'), lexiconHit('promise', 'promise')] })).toEqual({ raised: false, added: 1 });
    const detail = await readItemDetail(as(person('ann'), 'supervision:ReadItem'), 'P1');
    expect(detail).toMatchObject({ state: 'Open', device_user_name: 'Sam Seller', due_at: '2026-01-17T12:00:00.000Z', item_version: 2, is_overdue: false });
    expect(detail.hits.map((hit) => hit.term)).toEqual(['guarantee', 'promise']);
    expect(detail.history.map((entry) => [entry.event, entry.by, entry.from_state, entry.to_state, entry.policy_reference])).toEqual([
      ['raise', 'job:payload-processing', undefined, 'Open', 'guarantee'],
      ['hit', 'job:payload-processing', 'Open', 'Open', 'promise'],
    ]);
  });

  it('reopens a Closed item on a new hit, saying so', async () => {
    const { deps, as } = setup();
    await raise(deps, 'P1');
    await reviewItem(as(person('ann'), 'supervision:ReviewItem'), 'P1', { action: 'close', disposition: 'No issue' });
    expect(await raise(deps, 'P1', { hits: [lexiconHit('promise', 'promise')] })).toEqual({ raised: true, added: 1 });
    const detail = await readItemDetail(as(person('ann'), 'supervision:ReadItem'), 'P1');
    expect(detail.state).toBe('Open');
    expect(detail.disposition).toBeUndefined();
    expect(detail.history.at(-1)).toMatchObject({ event: 'hit', from_state: 'Closed', to_state: 'Open', note: 'Reopened by a new hit' });
  });
});

describe('reviewing an item', () => {
  it('walks claim, release, assign, escalate, close and reopen, one history entry each', async () => {
    const { deps, as, table } = setup();
    await table.put({ ...keys.portalUser.item('demo', 'bob'), user_reference: 'bob', email: 'bob@demo.test', first_name: 'Bob', surname: 'Boss', roles: [] });
    await raise(deps, 'P1');
    const ann = as(person('ann', 'ann@demo.test'), 'supervision:ReviewItem');
    expect(await reviewItem(ann, 'P1', { action: 'claim' })).toMatchObject({ state: 'Claimed', assignee: 'ann' });
    await expect(reviewItem(as(person('cat'), 'supervision:ReviewItem'), 'P1', { action: 'claim' })).rejects.toMatchObject({ status: 409 });
    expect(await reviewItem(ann, 'P1', { action: 'release' })).toMatchObject({ state: 'Open' });
    expect(await reviewItem(ann, 'P1', { action: 'assign', assignee: 'bob' })).toMatchObject({ state: 'Claimed', assignee: 'bob', assignee_actor: { name: 'Bob Boss', email: 'bob@demo.test' } });
    await expect(reviewItem(ann, 'P1', { action: 'assign', assignee: 'nobody' })).rejects.toMatchObject({ status: 400, lines: ['body.assignee: No portal user "nobody" in this tenant'] });
    expect(await reviewItem(ann, 'P1', { action: 'escalate', note: 'needs compliance' })).toMatchObject({ state: 'Escalated', assignee: 'bob' });
    await expect(reviewItem(ann, 'P1', { action: 'reopen', note: 'x' })).rejects.toMatchObject({ status: 409, lines: ['Cannot reopen an item that is Escalated'] });
    const closed = await reviewItem(ann, 'P1', { action: 'close', disposition: 'False positive', note: 'quoted a disclaimer' });
    expect(closed).toMatchObject({ state: 'Closed', disposition: 'False positive', closed_by: 'ann', closed_at: T0.toISOString() });
    await expect(reviewItem(ann, 'P1', { action: 'close', disposition: 'No issue' })).rejects.toMatchObject({ status: 409 });
    const reopened = await reviewItem(ann, 'P1', { action: 'reopen', note: 'wrong call' });
    expect(reopened).toMatchObject({ state: 'Open', item_version: 7 });
    expect(reopened.disposition).toBeUndefined();
    expect(reopened.history.map((entry) => [entry.event, entry.from_state, entry.to_state, entry.disposition, entry.note, entry.assignee])).toEqual([
      ['raise', undefined, 'Open', undefined, undefined, undefined],
      ['claim', 'Open', 'Claimed', undefined, undefined, 'ann'],
      ['release', 'Claimed', 'Open', undefined, undefined, undefined],
      ['assign', 'Open', 'Claimed', undefined, undefined, 'bob'],
      ['escalate', 'Claimed', 'Escalated', undefined, 'needs compliance', undefined],
      ['close', 'Escalated', 'Closed', 'False positive', 'quoted a disclaimer', undefined],
      ['reopen', 'Closed', 'Open', undefined, 'wrong call', undefined],
    ]);
    expect(reopened.history.every((entry) => entry.is_bulk === false)).toBe(true);
  });

  it('refuses to let a reviewer close the review of their own communications', async () => {
    const { deps, as, table } = setup();
    await table.put({ ...keys.deviceUser.item('demo', 'du-1'), device_user_reference: 'du-1', is_active: true, email: 'Sam@Demo.test' });
    await raise(deps, 'P1', { deviceUser: 'du-1' });
    await expect(reviewItem(as(person('sam', 'sam@demo.TEST'), 'supervision:ReviewItem'), 'P1', { action: 'close', disposition: 'No issue' })).rejects.toMatchObject({ status: 403, lines: [OWN_REVIEW] });
    expect(await reviewItem(as(person('ann', 'ann@demo.test'), 'supervision:ReviewItem'), 'P1', { action: 'close', disposition: 'No issue' })).toMatchObject({ state: 'Closed' });
  });

  it('answers a missing item and an item out of scope alike (404), and never writes to it', async () => {
    const { deps, as, table } = setup();
    await raise(deps, 'HIDDEN', { group: 'secret' });
    await raise(deps, 'PHOTO', { type: 'Photo' });
    const scoped = reviewer([{ names_matching: 'open' }]);
    const ann = (action: string) => as(person('ann'), action, scoped);
    for (const reference of ['HIDDEN', 'PHOTO', 'MISSING']) {
      await expect(readItemDetail(ann('supervision:ReadItem'), reference)).rejects.toMatchObject({ status: 404, lines: ['Review item not found'] });
      await expect(reviewItem(ann('supervision:ReviewItem'), reference, { action: 'claim' })).rejects.toMatchObject({ status: 404 });
    }
    const stored = await table.get(keys.supervisionItem.key('demo', 'HIDDEN'));
    expect(stored?.item_version).toBe(1);
  });

  it('applies a bulk action per item, marking each entry bulk and reporting each refusal', async () => {
    const { deps, as } = setup();
    await raise(deps, 'P1');
    await raise(deps, 'P2');
    const ann = as(person('ann'), 'supervision:ReviewItem');
    await reviewItem(ann, 'P2', { action: 'close', disposition: 'No issue' });
    const result = await reviewItems(ann, { action: 'close', disposition: 'Issue – reported', note: 'sent to compliance', item_references: ['P1', 'P2', 'NOPE'] });
    expect(result.data).toEqual([
      { reference: 'P1', ok: true },
      { reference: 'P2', ok: false, message: 'Cannot close an item that is Closed' },
      { reference: 'NOPE', ok: false, message: 'Review item not found' },
    ]);
    const detail = await readItemDetail(as(person('ann'), 'supervision:ReadItem'), 'P1');
    expect(detail.history.at(-1)).toMatchObject({ event: 'close', is_bulk: true, disposition: 'Issue – reported', note: 'sent to compliance' });
  });
});

describe('listing the queue', () => {
  it('filters by state, overdue, assignee and policy, and counts exactly what the pages show, within scope', async () => {
    const { deps, as, clock } = setup();
    await raise(deps, 'P1');
    await raise(deps, 'P2', { hits: [lexiconHit('promise', 'promise')] });
    await raise(deps, 'P3', { group: 'secret' });
    const ann = as(person('ann'), 'supervision:ReviewItem');
    await reviewItem(ann, 'P2', { action: 'claim' });
    const list = (query: Record<string, unknown>, role = reviewer()) =>
      listItems(as(person('ann'), 'supervision:ListItems', role), { limit: 50, result_type: 'page', ...query });
    const references = async (query: Record<string, unknown>, role?: Role) => {
      const page = await list(query, role);
      return 'data' in page ? page.data.map((item) => item.item_reference).sort() : [];
    };
    expect(await references({})).toEqual(['P1', 'P2', 'P3']);
    expect(await references({ state: 'Claimed' })).toEqual(['P2']);
    expect(await references({ assignee: 'ann' })).toEqual(['P2']);
    expect(await references({ policy_reference: 'promise' })).toEqual(['P2']);
    expect(await references({ overdue: true })).toEqual([]);
    clock.time = new Date(T0.getTime() + 8 * 86_400_000);
    expect(await references({ overdue: true })).toEqual(['P1', 'P2', 'P3']);
    expect(await references({ overdue: true, state: 'Open' })).toEqual(['P1', 'P3']);
    const scoped = reviewer([{ names_matching: 'secret' }], ['SMS']);
    expect(await references({}, scoped)).toEqual(['P3']);
    expect(await list({ result_type: 'total' }, scoped)).toEqual({ count: 1 });
    expect(await list({ result_type: 'total', overdue: true })).toEqual({ count: 3 });
    expect(await list({ result_type: 'total' }, reviewer([], ['Call']))).toEqual({ count: 0 });
  });

  it('pages with a cursor through the same list, the overdue one still resuming a minute later', async () => {
    const { deps, as, clock } = setup();
    for (const reference of ['P1', 'P2', 'P3']) await raise(deps, reference);
    clock.time = new Date(T0.getTime() + 8 * 86_400_000);
    const caller = () => as(person('ann'), 'supervision:ListItems');
    const seen: string[] = [];
    let lastKey: string | undefined;
    do {
      const page = await listItems(caller(), { limit: 1, result_type: 'page', overdue: true, ...(lastKey === undefined ? {} : { last_key: lastKey }) });
      if (!('data' in page)) throw new Error('a page');
      seen.push(...page.data.map((item) => item.item_reference));
      lastKey = page.last_key;
      clock.time = new Date(clock.time.getTime() + 60_000);
    } while (lastKey !== undefined);
    expect(seen.sort()).toEqual(['P1', 'P2', 'P3']);
    // A cursor of one list is refused by another.
    const first = await listItems(caller(), { limit: 1, result_type: 'page', overdue: true });
    const cursor = 'last_key' in first ? first.last_key : undefined;
    await expect(listItems(caller(), { limit: 1, result_type: 'page', state: 'Open', ...(cursor === undefined ? {} : { last_key: cursor }) })).rejects.toMatchObject({ status: 400 });
  });
});
