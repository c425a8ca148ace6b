import { describe, expect, it } from 'vitest';
import { SupervisionQueueSearch, queueQuery } from './queue-search.ts';

describe('the queue’s URL filters', () => {
  it('keep every filter the API offers, as the URL gives them', () => {
    const search = SupervisionQueueSearch.parse({
      state: 'Claimed',
      policy_reference: 'lexicon-promises',
      assignee: 'reviewer@demo.test',
      device_user_reference: 'du-alice',
      group: 'london-equities',
      from: '2026-11-01',
      to: '2026-11-30',
      overdue: true,
    });
    expect(queueQuery(search)).toEqual({
      state: 'Claimed',
      policy_reference: 'lexicon-promises',
      assignee: 'reviewer@demo.test',
      device_user_reference: 'du-alice',
      group: 'london-equities',
      from: '2026-11-01',
      to: '2026-11-30',
      overdue: 'true',
    });
  });

  it('drop junk from a hand-edited link rather than fail: an unknown state, a bad day, a non-flag', () => {
    const search = SupervisionQueueSearch.parse({ state: 'Deleted', from: '1 Nov', overdue: 'yes', group: '   ' });
    expect(search).toEqual({ state: undefined, from: undefined, overdue: undefined, group: undefined });
    expect(queueQuery(search)).toEqual({});
  });

  it('take a numeric group back as its text (the router reads ?group=123 as a number)', () => {
    expect(queueQuery(SupervisionQueueSearch.parse({ group: 123 }))).toEqual({ group: '123' });
  });

  it('send overdue only when set: off is no filter, not overdue=false', () => {
    expect(queueQuery(SupervisionQueueSearch.parse({ overdue: false }))).toEqual({});
    expect(queueQuery({})).toEqual({});
  });

  it('make a query the contract accepts', async () => {
    const { listSupervisionItems } = await import('../api/list-items.ts');
    const query = queueQuery(SupervisionQueueSearch.parse({ state: 'Open', overdue: true, from: '2026-11-01' }));
    expect(listSupervisionItems.query.safeParse(query).success).toBe(true);
  });
});
