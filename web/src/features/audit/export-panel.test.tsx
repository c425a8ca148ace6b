import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { ExportPanel } from './export-panel.tsx';
import { IntegrityPanel } from './integrity-panel.tsx';

describe('the audit screen\'s integrity panels', () => {
  it('offer the export only to a role that may export the trail', () => {
    const allowed = renderSignedIn(<ExportPanel />, userWith(['activities:List', 'activities:Export']));
    expect(allowed).toContain('Export the trail');
    expect(allowed).toContain('Start the export');
    expect(allowed).toContain('First day');
    const reader = renderSignedIn(<ExportPanel />, userWith(['activities:List']));
    expect(reader).not.toContain('Start the export');
  });

  it('show the stored recordings check only to a role that may read the trail', () => {
    expect(renderSignedIn(<IntegrityPanel />, userWith(['activities:List']))).toContain('Stored recordings check');
    expect(renderSignedIn(<IntegrityPanel />, userWith(['devices:List']))).not.toContain('Stored recordings check');
  });
});
