import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { formErrorsFor } from './form-errors.tsx';
import { SegmentedField, TextareaField, TextField, type FormBinding } from './form-fields.tsx';

interface Values {
  issuer: string;
  note: string;
  mode: 'free' | 'list';
}

const render = (node: React.ReactNode) => renderSignedIn(node, userWith([]));
const ignore = () => undefined;

/** A form whose API call was refused with these lines, wired as the screens wire it. */
function refusedWith(lines: string[]): FormBinding<Values> {
  const errors = formErrorsFor({ error: new Error(lines.join('\n')), paths: { issuer: 'body.oidc_config.issuer', note: 'body.note' } });
  return { values: { issuer: 'http://idp', note: 'kept', mode: 'list' }, set: ignore, errors: errors.field };
}

describe('bound form fields', () => {
  it('show the label, description, required marker, value and the API line for their own path under the field', () => {
    const form = refusedWith(['body.oidc_config.issuer: Must start with https://', 'body.other: Not a field here']);
    const html = render(<TextField form={form} name="issuer" label="Token issuer" description="The OIDC issuer URL" required />);
    expect(html).toContain('Token issuer');
    expect(html).toContain('The OIDC issuer URL');
    expect(html).toMatch(/<input[^>]*required=""/);
    expect(html).toContain('value="http://idp"');
    expect(html).toContain('Must start with https://');
    expect(html).toMatch(/<input[^>]*aria-invalid="true"/);
    // A line naming another path is the form's summary's, never this field's.
    expect(html).not.toContain('Not a field here');
  });

  it('show no error and no required marker when neither applies', () => {
    const html = render(<TextareaField form={refusedWith([])} name="note" label="Note" />);
    expect(html).toContain('Note');
    expect(html).toContain('kept</textarea>');
    expect(html).not.toContain('aria-invalid="true"');
    expect(html).not.toContain('required=""');
  });

  it('label a segmented choice by its own text and show its message as an alert', () => {
    const options = [
      { value: 'free', label: 'Any text' },
      { value: 'list', label: 'Only listed values' },
    ] as const;
    const html = render(<SegmentedField id="mode-label" label="Allowed values" value="list" options={options} onChange={ignore} error="Pick one" />);
    expect(html).toMatch(/id="mode-label"[^>]*>Allowed values</);
    expect(html).toContain('aria-labelledby="mode-label"');
    expect(html).toContain('Only listed values');
    expect(html).toMatch(/role="alert"[^>]*>Pick one</);
    expect(render(<SegmentedField label="Allowed values" value="free" options={options} onChange={ignore} />)).not.toContain('role="alert"');
  });
});
