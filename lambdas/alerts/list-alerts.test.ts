import { describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import type { QuerySpec, TableItem, TableStore } from '#core/ports/table-store.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { MAX_READ_FOR_TOTAL } from '#core/store/paging.ts';
import { staffAlertAccess } from './alert-permissions.ts';
import { listAlerts } from './list-alerts.ts';

/**
 * A tenant's alert index of `size` alerts, served page by page as DynamoDB would (the key of the last item read is
 * where the next page starts). Generated on demand: a total over more alerts than any budget reads stays cheap.
 */
function alertIndex(size: number): Pick<TableStore, 'query'> {
  const alert = (position: number): TableItem => {
    const id = String(position).padStart(7, '0');
    return {
      pk: `C#demo#ALERT#${id}`,
      sk: 'ALERT',
      entity: 'Alert',
      gsi1pk: 'C#demo#ALERTS',
      gsi1sk: `2024-01-01T00:00:00.000Z#${id}`,
      alert_reference: `A${id}`,
      alert_scope: 'ops',
      alert_type: 'DeviceAlert',
      alert_subject: 'device',
      alert_message: 'seen',
      alert_state: 'Triggered',
      alert_severity: 'Low',
      first_occurrence: '2024-01-01T00:00:00.000Z',
      last_occurrence: '2024-01-01T00:00:00.000Z',
    };
  };
  return {
    async query(query: QuerySpec) {
      const start = query.startKey === undefined ? 0 : Number(query.startKey.pk?.split('#').at(-1)) + 1;
      const end = Math.min(size, start + (query.limit ?? 1_000));
      const items = Array.from({ length: end - start }, (_, offset) => alert(start + offset));
      const last = items.at(-1);
      return { items, ...(end < size && last !== undefined ? { lastKey: { pk: last.pk, sk: last.sk, gsi1pk: String(last.gsi1pk), gsi1sk: String(last.gsi1sk) } } : {}) };
    },
  };
}

const cursors = createCursorCodec('s'.repeat(32));
const total = { limit: 50, result_type: 'total', date_filter: 'last_occurrence' } as const;

describe('listAlerts totals', () => {
  it('counts every alert of a list far longer than one page or one page budget, exactly', async () => {
    const size = MAX_READ_FOR_TOTAL - 1;
    const answer = await listAlerts({ deps: { table: alertIndex(size) as TableStore, cursors }, tenant: 'demo', alerts: staffAlertAccess('staff') }, total);
    expect(answer).toEqual({ count: size });
  });

  it('refuses a total it cannot read to the end, rather than answer the count so far', async () => {
    // More alerts than the list used to read before it stopped and answered what it had counted (100,000).
    const refused = listAlerts({ deps: { table: alertIndex(100_001) as TableStore, cursors }, tenant: 'demo', alerts: staffAlertAccess('staff') }, total);
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ status: 400, lines: [`query.result_type: More than ${MAX_READ_FOR_TOTAL} records to count; narrow the time range`] });
  });
});
