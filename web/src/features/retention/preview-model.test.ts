import { describe, expect, it } from 'vitest';
import type { KeptCount, RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { keptText, keptTotals, LARGE_PREVIEW, needsConfirmation, previewRows, previewTotals, tallyText } from './preview-model.ts';

const due = (deleted: number, destroyed: number, more = false, kept: KeptCount[] = []) => ({ deleted: { count: deleted, more }, destroyed: { count: destroyed, more: false }, kept });

const previewOf = (rows: RetentionPreview['rows']): RetentionPreview => ({ as_of: '2026-11-25T02:00:00.000Z', count_cap: 10_000, rows });

describe('retention preview', () => {
  it('totals what the proposal adds beyond the current policy, never less than nothing', () => {
    const totals = previewTotals(
      previewOf([
        { record_type: 'AlertData', current: due(2, 0), proposed: due(12, 1) },
        { record_type: 'PayloadData', payload_type: 'Call', current: due(5, 5), proposed: due(3, 5) },
      ]),
    );
    expect(totals.extra).toEqual({ deleted: { count: 10, more: false }, destroyed: { count: 1, more: false } });
    expect(totals.proposed.deleted).toEqual({ count: 15, more: false });
    expect(totals.current.destroyed).toEqual({ count: 5, more: false });
    expect(needsConfirmation(totals)).toBe(false);
  });

  it('asks for a confirmation from LARGE_PREVIEW extra records, or when a count hit the cap', () => {
    const many = previewTotals(previewOf([{ record_type: 'GpsData', current: due(0, 0), proposed: due(LARGE_PREVIEW, 0) }]));
    expect(needsConfirmation(many)).toBe(true);
    const capped = previewTotals(previewOf([{ record_type: 'GpsData', current: due(0, 0), proposed: due(10, 0, true) }]));
    expect(needsConfirmation(capped)).toBe(true);
    expect(tallyText(capped.extra.deleted, String)).toBe('more than 10');
  });

  it('shows only rows where something is due', () => {
    const rows = previewRows(
      previewOf([
        { record_type: 'AlertData', current: due(0, 0), proposed: due(0, 0) },
        { record_type: 'PayloadData', payload_type: 'SMS', current: due(0, 0), proposed: due(4, 0) },
      ]),
    );
    expect(rows.map((row) => row.key)).toEqual(['PayloadData:SMS']);
    expect(rows[0]?.extra.deleted).toEqual({ count: 4, more: false });
  });

  it('says what the run keeps, and why, summed over the rows; a row with only kept records is shown', () => {
    const held: KeptCount = { reason: 'legal_hold', instead_of: 'Deleted', count: 1, more: false };
    const locked: KeptCount = { reason: 'object_lock', instead_of: 'Destroyed', count: 4, more: false };
    const preview = previewOf([
      { record_type: 'PayloadData', payload_type: 'Call', current: due(0, 0), proposed: due(4, 0, false, [held, locked]) },
      { record_type: 'GpsData', current: due(0, 0), proposed: due(0, 0, false, [{ ...held, count: 2 }]) },
    ]);
    expect(keptTotals(preview).map((kept) => keptText(kept, String))).toEqual(['3 not deleted: under a legal hold', '4 not destroyed: Object Lock retention still in force']);
    expect(previewRows(preview).map((row) => row.key)).toEqual(['PayloadData:Call', 'GpsData:']);
  });
});
