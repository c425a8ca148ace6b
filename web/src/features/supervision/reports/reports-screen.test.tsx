import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { ReportsScreen } from './reports-screen.tsx';
import { ReportsSearch } from './reports-search.ts';

describe('the supervision reports screen', () => {
  it('reads its period from the URL, dropping a day that is not one', () => {
    expect(ReportsSearch.parse({ from: '2026-10-01', to: 'yesterday' })).toEqual({ from: '2026-10-01', to: undefined });
  });

  it('opens on the outstanding report with its period in words, a chart and a table with CSV export', () => {
    const html = renderSignedIn(<ReportsScreen search={{ from: '2026-10-01', to: undefined }} onSearch={() => undefined} />, userWith(['supervision:ReadReports']));
    const text = html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Supervision reports');
    expect(text).toContain('Items not closed now, raised from 1 Oct 2026 on (UTC days, both ends included).');
    expect(text).toContain('Outstanding items by age');
    expect(text).toContain('Export CSV');
    expect(text).toMatch(/Outstanding .*Outcomes .*Reviewers/);
  });
});
