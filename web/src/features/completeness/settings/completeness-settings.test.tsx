import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { CompletenessSettings, HoursForm } from './completeness-settings.tsx';

const stored = { client: 'demo', cidr_ranges: [], completeness_grace_hours: 6, silent_device_hours: 48 };
const textOf = (html: string) => html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the completeness hours card', () => {
  it('shows both hours, editable with a save for a role that may change the defaults', () => {
    const html = renderSignedIn(<HoursForm stored={stored} />, userWith(['account:ReadDefaults', 'account:UpdateDefaults']));
    expect(html).toContain('value="6 hours"');
    expect(html).toContain('value="48 hours"');
    expect(textOf(html)).toContain('Grace before Missing');
    expect(textOf(html)).toContain('Save hours');
    expect(html).not.toMatch(/readonly=""/i);
  });

  it('is read-only, without a save, for a role that may only read them', () => {
    const html = renderSignedIn(<HoursForm stored={stored} />, userWith(['account:ReadDefaults']));
    expect(textOf(html)).toContain('Your roles allow reading these hours, not changing them.');
    expect(textOf(html)).not.toContain('Save hours');
    expect(html).toMatch(/readonly=""/i);
  });

  it('is not shown to a role that may not read the account defaults', () => {
    expect(renderSignedIn(<CompletenessSettings />, userWith(['completeness:List']))).not.toContain('completeness-settings');
  });
});
