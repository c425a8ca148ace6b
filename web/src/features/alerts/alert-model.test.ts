import { describe, expect, it } from 'vitest';
import { ATTENTION_SEARCH, AlertsSearch, alertQueryOf } from './alert-filters.ts';
import { alertTypeLabel, describeBulkResult, isPortalLink, summaryTotals } from './alert-labels.ts';

describe('alert filters', () => {
  it('turns the URL into the list query, leaving unset filters out', () => {
    const search = AlertsSearch.parse({ state: 'Triggered', severity: 'High', date_filter: 'first_occurrence', from: '2026-11-01', active_only: true });
    expect(alertQueryOf(search, 'sec')).toEqual({
      alert_scope: 'sec',
      alert_state: 'Triggered',
      alert_severity: 'High',
      date_filter: 'first_occurrence',
      from: '2026-11-01',
      active_only: 'true',
    });
    expect(alertQueryOf(AlertsSearch.parse({}), 'ops')).toEqual({ alert_scope: 'ops' });
  });

  it("leads the header's count to the list of exactly what it counts: every readable scope, active alerts only", () => {
    const search = AlertsSearch.parse(ATTENTION_SEARCH);
    expect(search).toEqual({ scope: 'all', active_only: true });
    expect(alertQueryOf(search, 'all')).toEqual({ active_only: 'true' });
  });

  it('drops junk from a hand-edited link instead of failing', () => {
    expect(AlertsSearch.parse({ state: 'Open', severity: 'Critical', from: '01/11/2026', scope: 'both' })).toEqual({});
  });
});

describe('alert labels', () => {
  it('spells alert types as words', () => {
    expect(alertTypeLabel('DeviceUserAlert')).toBe('Device user alert');
    expect(alertTypeLabel('Notification')).toBe('Notification');
  });

  it('says how a bulk action went, naming each refusal', () => {
    expect(describeBulkResult({ data: [{ reference: 'a', ok: true }, { reference: 'b', ok: true }] }, 'cleared')).toEqual({
      ok: true,
      message: '2 alerts cleared.',
    });
    const partial = describeBulkResult({ data: [{ reference: 'a', ok: true }, { reference: 'b', ok: false, message: 'Not allowed' }] }, 'dismissed');
    expect(partial.ok).toBe(false);
    expect(partial.message).toContain('1 alert dismissed.');
    expect(partial.message).toContain('b: Not allowed');
  });

  it('follows only portal paths from an alert', () => {
    expect(isPortalLink('/dashboard/devices/d-1')).toBe(true);
    expect(isPortalLink('https://evil.example/dashboard/')).toBe(false);
    expect(isPortalLink('//evil.example')).toBe(false);
    expect(isPortalLink(undefined)).toBe(false);
  });
});

describe('alert summary badge', () => {
  it('adds both scopes per severity, most severe first, leaving out severities with none', () => {
    expect(
      summaryTotals([
        { scope: 'ops', severity: 'Low', count: 2 },
        { scope: 'sec', severity: 'Low', count: 1 },
        { scope: 'sec', severity: 'High', count: 4 },
        { scope: 'ops', severity: 'Medium', count: 0 },
      ]),
    ).toEqual({ total: 7, bySeverity: [['High', 4], ['Low', 3]] });
    expect(summaryTotals([])).toEqual({ total: 0, bySeverity: [] });
  });
});
