import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { CompletenessPanel } from './completeness-panel.tsx';
import { CompletenessScreen, drillQuery } from './completeness-screen.tsx';
import { CompletenessSearch } from './completeness-search.ts';

const now = new Date('2026-11-29T05:00:00Z');
const textOf = (html: string) => html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the capture completeness screen', () => {
  it('reads its period and drill-down from the URL, dropping what is not one', () => {
    expect(CompletenessSearch.parse({ from: '2026-11-01', to: 'soon', outcome: 'Missing', day: '2026-11-03', payload_type: 'Fax', entries: true })).toEqual({
      from: '2026-11-01',
      to: undefined,
      group: undefined,
      gaps: undefined,
      outcome: 'Missing',
      day: '2026-11-03',
      device_user_reference: undefined,
      device_reference: undefined,
      payload_type: undefined,
      entries: true,
    });
  });

  it('asks the entries of the opened day (else the period) with the count’s outcome and cut', () => {
    const period = { from: '2026-10-31', to: '2026-11-29' };
    expect(drillQuery({ outcome: 'Missing', day: '2026-11-03', device_user_reference: 'alice' }, period)).toEqual({
      from: '2026-11-03',
      to: '2026-11-03',
      outcome: 'Missing',
      device_user_reference: 'alice',
      limit: '100',
    });
    expect(drillQuery({ group: 'desk', entries: true }, period)).toEqual({ ...period, group: 'desk', limit: '100' });
  });

  it('says the period it reads (the last 30 days by default) and shows the report while it loads', () => {
    const text = textOf(renderSignedIn(<CompletenessScreen search={{}} onSearch={() => undefined} now={now} />, userWith(['completeness:List'])));
    expect(text).toContain('Capture completeness');
    expect(text).toContain('From 31 Oct 2026 to 29 Nov 2026 (UTC days, both included)');
    expect(text).toContain('Gaps first');
    expect(text).not.toContain('Not available to your role');
  });

  it('tells a role without completeness:List that the report is not theirs, and reads nothing', () => {
    const text = textOf(renderSignedIn(<CompletenessScreen search={{}} onSearch={() => undefined} now={now} />, userWith([])));
    expect(text).toContain('Not available to your role');
    expect(text).not.toContain('Gaps first');
  });

  it('opens the entries behind a count with the ledger download, titled by what they are', () => {
    const text = textOf(
      renderSignedIn(
        <CompletenessScreen search={{ outcome: 'Missing', day: '2026-11-03', entries: true }} onSearch={() => undefined} now={now} />,
        userWith(['completeness:List', 'completeness:ListEntries']),
      ),
    );
    expect(text).toContain('Missing entries on 3 Nov 2026');
    expect(text).toContain('Download all (CSV)');
    expect(text).toContain('Close entries');
  });
});

describe('the completeness panel', () => {
  it('is not shown to a role that cannot read completeness', () => {
    const html = renderSignedIn(<CompletenessPanel subject={{ deviceUser: 'alice' }} name="Alice Archer" now={now} />, userWith([]));
    expect(html).not.toContain('completeness-panel');
  });

});
