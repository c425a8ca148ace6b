import { describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { RetentionPolicyRequest, type RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { formErrorsOf } from '../../lib/form-errors.ts';
import {
  describeDays,
  periodChange,
  retentionChanges,
  retentionFieldPaths,
  retentionRequestOf,
  retentionValuesOf,
  shortensRecordings,
  type RetentionValues,
} from './retention-model.ts';

const LABELS = { record: (type: string) => type, payload: (type: string) => type, timestamp: (type: string) => type };

const policy: RetentionPolicy = {
  client: 'demo',
  AlertData: { delete_after_days: 1096, destroy_after_days: 1186 },
  GpsData: {},
  PayloadData: [
    { payload_type: 'Call', delete_after_days: 2557, destroy_after_days: 2647, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 1 },
    { payload_type: 'Diagnostics', delete_after_days: 366, retention_timestamp: 'processed_at', required_receipts: 0, required_transfers: 0 },
  ],
};

describe('retention periods in words', () => {
  it('shows days also as years and months, and blank as kept without end', () => {
    expect(describeDays(2557)).toBe('7 years');
    expect(describeDays(2647)).toBe('7 years 3 months');
    expect(describeDays(366)).toBe('1 year');
    expect(describeDays(90)).toBe('3 months');
    expect(describeDays(45)).toBe('45 days');
    expect(describeDays(1)).toBe('1 day');
    expect(describeDays(0)).toBe('at once');
    expect(describeDays('')).toBe('kept without end');
    expect(describeDays(100)).toBe('about 3 months');
  });

  it('calls a blank period endless when comparing', () => {
    expect(periodChange('', 30)).toBe('shorter');
    expect(periodChange(30, '')).toBe('longer');
    expect(periodChange(30, 10)).toBe('shorter');
    expect(periodChange(30, 30)).toBe('same');
  });
});

describe('the policy as form values and back', () => {
  it('reads every record type and every payload type, blank where the policy keeps without end', () => {
    const values = retentionValuesOf(policy);
    expect(values.records.AlertData).toEqual({ delete_after_days: 1096, destroy_after_days: 1186 });
    expect(values.records.GpsData).toEqual({ delete_after_days: '', destroy_after_days: '' });
    expect(values.payloads.map((entry) => entry.payload_type)).toEqual([...PAYLOAD_TYPES]);
    expect(values.payloads.find((entry) => entry.payload_type === 'Diagnostics')).toMatchObject({ delete_after_days: 366, destroy_after_days: '', retention_timestamp: 'processed_at' });
  });

  it('writes a request the contract accepts, blank periods left out, payload types in the order the error paths name', () => {
    const body = retentionRequestOf(retentionValuesOf(policy));
    expect(RetentionPolicyRequest.safeParse(body).success).toBe(true);
    expect(body.GpsData).toEqual({});
    expect(body.AlertData).toEqual({ delete_after_days: 1096, destroy_after_days: 1186 });
    expect(body.PayloadData?.map((entry) => entry.payload_type)).toEqual([...PAYLOAD_TYPES]);
    expect(body.PayloadData?.[PAYLOAD_TYPES.indexOf('Call')]).toMatchObject({ delete_after_days: 2557, required_transfers: 1 });
  });
});

describe('what an edit changes', () => {
  const edit = (change: (values: RetentionValues) => void) => {
    const before = retentionValuesOf(policy);
    const after = structuredClone(before);
    change(after);
    return retentionChanges(before, after, LABELS);
  };

  it('lists each changed field with before and after, and whether it shortens', () => {
    const changes = edit((values) => {
      values.records.AlertData.delete_after_days = 30;
      values.records.GpsData.destroy_after_days = 400;
    });
    expect(changes).toEqual([
      { row: 'AlertData', field: 'Delete after', before: '1,096 days (3 years)', after: '30 days (30 days)', shortens: true },
      { row: 'GpsData', field: 'Destroy after', before: 'never', after: '400 days (about 1 year 1 month)', shortens: true },
    ]);
    expect(shortensRecordings(changes)).toBe(false);
  });

  it('counts fewer required transfers on recordings as a shortening of recordings', () => {
    const changes = edit((values) => {
      const call = values.payloads.find((entry) => entry.payload_type === 'Call');
      if (call) call.required_transfers = 0;
    });
    expect(changes).toEqual([{ row: 'Payload data: Call', field: 'Transfers required', before: '1', after: '0', shortens: true }]);
    expect(shortensRecordings(changes)).toBe(true);
  });

  it('finds nothing when nothing changed', () => {
    expect(edit(() => undefined)).toEqual([]);
  });
});

describe('refused input beside its field', () => {
  it('puts each `path: message` line under the input it names, and a whole-row line under its first input', () => {
    const call = PAYLOAD_TYPES.indexOf('Call');
    const errors = formErrorsOf(
      [
        'body.AlertData.destroy_after_days: Must not be before delete_after_days (1096): a record is destroyed after it is deleted',
        `body.PayloadData.${call}.required_transfers: Must be at least 0`,
        `body.PayloadData.${call}: Something about the row`,
        'body: Something about the policy',
      ],
      retentionFieldPaths(),
    );
    expect(errors.field['records.AlertData.destroy_after_days']).toMatch(/^Must not be before/);
    expect(errors.field[`payloads.${call}.required_transfers`]).toBe('Must be at least 0');
    expect(errors.field[`payloads.${call}.delete_after_days`]).toBe('Something about the row');
    expect(errors.general).toEqual(['body: Something about the policy']);
  });
});
