import { describe, expect, it } from 'vitest';
import type { TableItem } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { keys } from '#core/store/keys.ts';
import { fromState } from '../dispose.ts';
import { dueMarkerItems } from '../due-index.ts';
import { deletePasses, destroyPasses, rulesOf } from '../retention-rules.ts';
import { purgedInBatches } from './bulk-purge.ts';
import { supervisionItemChanges } from './supervision-item.ts';

const now = new Date('2026-06-01T00:00:00.000Z');
const [rule] = rulesOf({ SupervisionData: { delete_after_days: 1, destroy_after_days: 2 } }).filter((one) => one.recordType === 'SupervisionData');
const [deletion] = deletePasses(rule!, now);
const [destruction] = destroyPasses(rule!, now);
const disposal = { disposed_at: now.toISOString() } as DisposalItem;
const CLOSED_AT = '2026-03-01T00:00:00.000Z';

const item = (fields: Record<string, unknown>): TableItem => ({
  ...keys.supervisionItem.item('acme', { itemReference: 'P1', state: String(fields.state ?? 'Open'), dueAt: '2026-02-08T00:00:00.000Z', payloadTime: '2026-02-01T00:00:00.000Z' }),
  item_reference: 'P1',
  device_reference: 'd1',
  device_user_reference: 'ann',
  item_version: 4,
  ...fields,
});

describe('supervision review items in retention (SupervisionData)', () => {
  it('marks an item from its closing only: an outstanding one has no marker', () => {
    for (const state of ['Open', 'Claimed', 'Escalated']) expect(dueMarkerItems('acme', item({ state }))).toEqual([]);
    const markers = dueMarkerItems('acme', item({ state: 'Closed', closed_at: CLOSED_AT }));
    expect(markers.map((marker) => [marker.record_type, marker.reference, marker.base_time, marker.stage])).toEqual([['SupervisionData', 'P1', CLOSED_AT, 'LIVE']]);
    expect(fromState(item({ state: 'Escalated' }), deletion!)).toBe('active');
    expect(typeof fromState(item({ state: 'Closed', closed_at: CLOSED_AT }), deletion!)).toBe('object');
  });

  it('deletes and destroys by marking the item, moving its version on, only while it is still Closed', async () => {
    const closed = item({ state: 'Closed', closed_at: CLOSED_AT });
    const condition = fromState(closed, deletion!);
    if (typeof condition === 'string') throw new Error('due');
    const [deleted] = await supervisionItemChanges.change({} as never, 'acme', closed, { action: 'Deleted', condition, disposal });
    expect(deleted).toMatchObject({ kind: 'update', update: { set: { retention_state: 'Deleted', deleted_at: now.toISOString(), item_version: 5 } } });
    expect(deleted?.kind === 'update' && deleted.condition?.kind === 'expression' && deleted.condition.expression).toContain('#review_state = :closed');
    const [destroyed] = await supervisionItemChanges.change({} as never, 'acme', { ...closed, retention_state: 'Deleted', deleted_at: '2026-05-01T00:00:00.000Z' }, { action: 'Destroyed', condition, disposal });
    expect(destroyed).toMatchObject({ kind: 'update', update: { set: { retention_state: 'Destroyed', item_version: 5 } } });
    // Its history goes in batches after the disposal's transaction (it has no bound), then the item.
    expect(purgedInBatches('SupervisionData')).toBe(true);
    expect(destruction?.stage).toBe('DELETED');
  });
});
