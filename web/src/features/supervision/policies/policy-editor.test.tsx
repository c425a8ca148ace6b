import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { PolicyEditor } from './policy-editor.tsx';
import { emptyPolicy } from './policy-model.ts';
import { TermTester } from './term-tester.tsx';

const EDITOR = userWith(['supervision:ListPolicies', 'supervision:ReadPolicy', 'supervision:UpdatePolicy', 'supervision:PreviewPolicy']);

const html = (node: ReactNode, user = EDITOR) => renderSignedIn(node, user);
// React separates adjacent text with an empty comment; joined first, so a sentence reads as it shows.
const text = (markup: string) => markup.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe('PolicyEditor', () => {
  it('shows each term line’s problem under the terms as it is typed, by line number', () => {
    const page = text(html(<PolicyEditor initial={{ ...emptyPolicy(), reference: 'conduct', termsText: 'guarantee\n(a OR b)\n\nGUARANTEE' }} creating onSaved={() => undefined} />));
    expect(page).toContain('2 lines have problems');
    expect(page).toContain('Line 2 (“(a OR b)”): Must not use parentheses');
    expect(page).toContain('Line 4 (“GUARANTEE”): Repeats line 1');
    expect(page).toContain('Terms (3 of at most 1000)');
    expect(page).toContain('Create policy');
    expect(page).toContain('Term tester');
    expect(page).toContain('Preview');
  });

  it('offers a sampling policy its share and minimum, and neither terms nor a tester', () => {
    const page = text(html(<PolicyEditor initial={{ ...emptyPolicy('Sampling'), reference: 'calls-5' }} creating onSaved={() => undefined} />));
    expect(page).toContain("Share of each person's recordings a day (%)");
    expect(page).toContain('At least, a person a day');
    expect(page).not.toContain('Term tester');
    expect(page).not.toMatch(/Terms \(/);
  });

  it('offers no save to a user whose roles may not change policies, and says why', () => {
    const reader = userWith(['supervision:ListPolicies', 'supervision:ReadPolicy']);
    const page = text(html(<PolicyEditor initial={{ ...emptyPolicy(), reference: 'conduct', termsText: 'guarantee' }} creating={false} onSaved={() => undefined} />, reader));
    expect(page).not.toContain('Save policy');
    expect(page).toContain('Your roles do not allow changing supervision policies.');
  });
});

describe('TermTester', () => {
  const disclaimer = { policy_reference: 'disclaimer', kind: 'Ignore', is_enabled: true, terms: ['not a guarantee'], scope: { group_conditions: [], device_user_references: [], payload_types: ['SMS'] }, sample_minimum: 1, review_days: 7, policy_version: 1 } satisfies SupervisionPolicy;

  it('marks what raises an item, what the ignored text suppressed, and the ignored text itself', () => {
    const markup = html(<TermTester reference="promises" kind="Lexicon" terms={['guarantee']} others={[disclaimer]} othersPartial={false} initialSample="I guarantee it, though this is not a guarantee." />);
    expect(markup).toMatch(/<mark[^>]*data-kind="hit"[^>]*>guarantee<\/mark>/);
    expect(markup).toMatch(/<mark[^>]*data-kind="ignored"[^>]*>not a <\/mark><mark[^>]*data-kind="suppressed"[^>]*>guarantee<\/mark>/);
    expect(text(markup)).toContain('1 match raises an item.');
    expect(text(markup)).toContain('“guarantee” (promises): 1 raised, 1 suppressed by ignored text');
  });
});
