import { describe, expect, it } from 'vitest';
import * as C from './constants.ts';

describe('constants', () => {
  it('match the counts and members of spec points 4 and 9', () => {
    expect(C.PAYLOAD_TYPES).toHaveLength(10);
    expect(C.SERVICES).toHaveLength(8);
    expect(C.DEVICE_COMMANDS).toHaveLength(8);
    // Spec point 9's ten, and ours for supervision deadlines (docs/decisions.md).
    expect(C.ALERT_TYPES).toHaveLength(11);
    expect(C.ALERT_TYPES).toContain('SupervisionAlert');
    expect(C.ENTITY_TYPES).toHaveLength(7);
    expect(C.PAYLOAD_STATES).toHaveLength(10);
    // Spec point 3's eleven, supervision's reviews and the phones' capture ledger (docs/decisions.md).
    expect(C.RETENTION_RECORD_TYPES).toHaveLength(15);
    expect(C.RETENTION_RECORD_TYPES).toContain('CaptureLedgerData');
    expect(C.RETENTION_RECORD_TYPES).toContain('CaseData');
    expect(C.RETENTION_RECORD_TYPES).toContain('ErasureRequestData');
    expect(C.SUPPORT_ACCESS_APPROVAL_STATES).toEqual(['pending', 'canceled', 'approved', 'rejected', 'revoked', 'expired']);
    expect(C.DIRECTIONS).toEqual(['I', 'O', 'CC']);
  });
  it('keep the payload groups inside the payload types', () => {
    for (const group of [C.CALL_PAYLOAD_TYPES, C.MESSAGE_PAYLOAD_TYPES, C.TRANSFERABLE_PAYLOAD_TYPES]) {
      for (const type of group) expect(C.PAYLOAD_TYPES).toContain(type);
    }
    expect(C.TRANSFERABLE_PAYLOAD_TYPES).not.toContain('Diagnostics');
  });
  it('zod enums accept members and refuse others (case-sensitive)', () => {
    expect(C.PayloadType.safeParse('SMS').success).toBe(true);
    expect(C.PayloadType.safeParse('sms').success).toBe(false);
    expect(C.LogLevel.safeParse('TRACE').success).toBe(false);
    expect(C.MetricScope.safeParse('Summary').success).toBe(true);
  });
  it('carry the limits of point 9', () => {
    expect([C.LATE_PAYLOAD_DAYS, C.BULK_LIMIT, C.GROUP_TAG_LIMIT, C.TAG_VALUE_MAX_LENGTH, C.CALL_PARTIES_LIMIT, C.RESPONSE_EXCERPT_LENGTH]).toEqual([
      7, 100, 50, 255, 1000, 200,
    ]);
    expect([C.LICENCE_LIMIT_MIN, C.LICENCE_LIMIT_MAX, C.PAGE_SIZE_DEFAULT, C.PAGE_SIZE_MAX]).toEqual([0, 100000, 50, 100]);
  });
});
