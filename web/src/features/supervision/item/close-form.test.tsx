import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { CloseForm, closeRequestOf, noteRequired } from './close-form.tsx';

const ignore = () => undefined;

describe('the close form’s required note', () => {
  it('is required for every disposition but No issue', () => {
    expect(noteRequired('No issue')).toBe(false);
    expect(noteRequired('False positive')).toBe(true);
    expect(noteRequired('Issue – reported')).toBe(true);
    expect(noteRequired('Issue – actioned')).toBe(true);
    // Before a disposition is chosen the note shows as required: most dispositions need one.
    expect(noteRequired('')).toBe(true);
  });

  it('refuses to send a disposition that needs a note without one, under the note field', () => {
    expect(closeRequestOf({ disposition: 'False positive', note: '' })).toEqual({ lines: ['body.note: A note is required for any disposition but No issue'] });
    // A blank note is no note.
    expect(closeRequestOf({ disposition: 'Issue – reported', note: '   \n ' })).toEqual({ lines: ['body.note: A note is required for any disposition but No issue'] });
  });

  it('refuses to send without a disposition', () => {
    const made = closeRequestOf({ disposition: '', note: 'Looked at it' });
    expect(made).toHaveProperty('lines');
    expect('lines' in made && made.lines.some((line) => line.startsWith('body.disposition:'))).toBe(true);
  });

  it('sends No issue without a note, and any disposition with its trimmed note', () => {
    expect(closeRequestOf({ disposition: 'No issue', note: '' })).toEqual({ request: { action: 'close', disposition: 'No issue' } });
    expect(closeRequestOf({ disposition: 'False positive', note: '  Disclaimer wording, not a promise. ' })).toEqual({
      request: { action: 'close', disposition: 'False positive', note: 'Disclaimer wording, not a promise.' },
    });
  });

  it('refuses a note longer than the contract takes', () => {
    const made = closeRequestOf({ disposition: 'False positive', note: 'x'.repeat(4001) });
    expect('lines' in made && made.lines.some((line) => line.startsWith('body.note:'))).toBe(true);
  });

  it('shows the note as required before a disposition is chosen, and puts the server’s refusal under its field', () => {
    const html = renderSignedIn(
      <CloseForm busy={false} error={Object.assign(new Error('body.note: Too long'), {})} submitLabel="Close item" onSubmit={ignore} />,
      userWith(['supervision:ReviewItem']),
    );
    expect(html).toMatch(/Note[\s\S]*?mantine-InputWrapper-required/);
    expect(html).toContain('body.note: Too long'.replace('body.note: ', ''));
    expect(html).toContain('Close item');
  });
});
