import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { HighlightedText } from './highlighted-text.tsx';
import { matchesIn } from './item-text.tsx';

const render = (text: string, matches: { start: number; end: number }[]) =>
  renderSignedIn(<HighlightedText label="Message text" text={text} matches={matches} />, userWith([]));

describe('the highlighted text', () => {
  it('marks each matched term with <mark> and keeps the rest of the text as it is', () => {
    const text = 'I guarantee it, keep this off the record.';
    const html = render(text, [
      { start: 2, end: 11 },
      { start: 26, end: 40 },
    ]);
    expect(html).toContain('<mark>guarantee</mark>');
    expect(html).toContain('<mark>off the record</mark>');
    expect(html.match(/<mark>/g)).toHaveLength(2);
    // Joined, the pieces give the text back.
    expect(html.replace(/<[^>]+>/g, '').replace(/<!-- -->/g, '')).toContain(text);
  });

  it('merges overlapping matches into one mark and ignores offsets outside the text', () => {
    const html = render('delete this now', [
      { start: 0, end: 6 },
      { start: 0, end: 11 },
      { start: 40, end: 50 },
    ]);
    expect(html.match(/<mark>/g)).toHaveLength(1);
    expect(html).toContain('<mark>delete this</mark>');
  });

  it('escapes the text: a message with markup in it is shown, not run', () => {
    const html = render('<img src=x onerror=alert(1)> guarantee', [{ start: 29, end: 38 }]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).toContain('<mark>guarantee</mark>');
  });

  it('shows a text with no matches unmarked', () => {
    expect(render('nothing to see', [])).not.toContain('<mark>');
  });
});

describe('matchesIn', () => {
  it('takes the offsets of the lexicon hits in one field; sampling hits and the other field add none', () => {
    const hits = [
      { policy_reference: 'p', kind: 'Lexicon' as const, term: 'guarantee', field: 'text' as const, matches: [{ start: 1, end: 2 }], raised_at: '2026-11-01T00:00:00Z' },
      { policy_reference: 'p', kind: 'Lexicon' as const, term: 'promise', matches: [{ start: 3, end: 4 }], raised_at: '2026-11-01T00:00:00Z' },
      { policy_reference: 'p', kind: 'Lexicon' as const, term: 'deal', field: 'notes' as const, matches: [{ start: 5, end: 6 }], raised_at: '2026-11-01T00:00:00Z' },
      { policy_reference: 's', kind: 'Sampling' as const, matches: [], sample_value: 0.01, raised_at: '2026-11-01T00:00:00Z' },
    ];
    expect(matchesIn(hits, 'text')).toEqual([
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ]);
    expect(matchesIn(hits, 'notes')).toEqual([{ start: 5, end: 6 }]);
  });
});
