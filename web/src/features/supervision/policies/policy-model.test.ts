import { describe, expect, it } from 'vitest';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { itemsBetween } from '#shared/contract/messages.ts';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import { checkPolicy, draftOfPolicy, emptyPolicy, requestOf, ruleWords, scopeWords, serverTermLines, termLineProblems, termLinesOf, typesKeptFor } from './policy-model.ts';

const lexicon = (termsText: string) => ({ ...emptyPolicy('Lexicon'), reference: 'conduct', termsText });

describe('the terms text', () => {
  it('reads one term a line, trimmed, blank lines skipped, each with its line number', () => {
    expect(termLinesOf('guarantee\n\n  off the record  \r\nwhatsapp\n')).toEqual([
      { line: 1, term: 'guarantee' },
      { line: 3, term: 'off the record' },
      { line: 4, term: 'whatsapp' },
    ]);
  });

  it('files each problem under its own line: the engine refuses a term, a repeat names the line it repeats', () => {
    const problems = termLineProblems(termLinesOf('guarantee\n(a OR b)\nsell NEAR/99 now\nGuarantee\nx'.replace('\nx', '\nfine')));
    expect(problems.map(({ line, problem }) => [line, problem])).toEqual([
      [2, 'Must not use parentheses: one operator per term (A NEAR/n B or A NOT B), each alternative a term of its own'],
      [3, 'Write NEAR/n with n from 1 to 50 (the most words between the two phrases)'],
      [4, 'Repeats line 1'],
    ]);
  });

  it('refuses a huge term on its line and treats regex-like text as literal (no problem)', () => {
    const problems = termLineProblems(termLinesOf(`${'a'.repeat(201)}\n.*+?[x]|^$`));
    expect(problems).toEqual([{ line: 1, term: 'a'.repeat(201), problem: 'Must be at most 200 characters' }]);
  });

  it("puts the server's body.terms.<i> lines back on the i-th term's line", () => {
    const terms = termLinesOf('one\n\ntwo\nthree');
    expect(serverTermLines(['body.terms.1: Must contain a word', 'body.review_days: Too big', 'body.terms.9: lost'], terms)).toEqual({
      perLine: [{ line: 3, term: 'two', problem: 'Must contain a word' }],
      rest: ['body.review_days: Too big', 'body.terms.9: lost'],
    });
  });
});

describe('checkPolicy', () => {
  it('gives the body of a valid lexicon policy, without sampling fields', () => {
    const check = checkPolicy(lexicon('guarantee\noff the record'), { checkReference: true });
    expect(check.lines).toEqual([]);
    expect(check.body).toMatchObject({ kind: 'Lexicon', terms: ['guarantee', 'off the record'], review_days: 7 });
    expect(check.body).not.toHaveProperty('sample_percent');
  });

  it('refuses a lexicon without terms and a bad reference, as path lines', () => {
    const check = checkPolicy({ ...lexicon(''), reference: 'x' }, { checkReference: true });
    expect(check.body).toBeUndefined();
    expect(check.lines.some((line) => line.startsWith('params.policy_reference: '))).toBe(true);
    expect(check.lines).toContain(`body.terms: ${itemsBetween(1, 1000)}`);
  });

  it('refuses more than 1000 terms as a whole-field line', () => {
    const many = Array.from({ length: 1001 }, (_, i) => `term${i}`).join('\n');
    expect(checkPolicy(lexicon(many), { checkReference: true }).lines).toEqual([`body.terms: ${itemsBetween(1, 1000)}`]);
  });

  it('has no body while a line has a problem, and does not repeat the repeat as a whole-field line', () => {
    const check = checkPolicy(lexicon('guarantee\nGUARANTEE'), { checkReference: true });
    expect(check.body).toBeUndefined();
    expect(check.termProblems).toEqual([{ line: 2, term: 'GUARANTEE', problem: 'Repeats line 1' }]);
    expect(check.lines).toEqual([]);
  });

  it('needs a sampling share, takes no terms, and keeps the minimum', () => {
    const sampling = { ...emptyPolicy('Sampling'), reference: 'calls-5', termsText: 'ignored for sampling' };
    expect(checkPolicy(sampling, { checkReference: true }).body).toMatchObject({ kind: 'Sampling', terms: [], sample_percent: 5, sample_minimum: 1 });
    const missing = checkPolicy({ ...sampling, samplePercent: '' }, { checkReference: true });
    expect(missing.lines).toContain('body.sample_percent: A sampling policy needs its share');
    expect(checkPolicy({ ...sampling, samplePercent: '2.55' }, { checkReference: true }).lines).toEqual([
      'body.sample_percent: Must be a percentage with at most one decimal place',
    ]);
  });

  it('checks group matchers as the server does (a regex RE2 cannot read is refused)', () => {
    const draft = { ...lexicon('guarantee'), conditions: [{ mode: 'include' as const, names: '(?<=x)a', keys: '', values: '', isRegex: true }] };
    const check = checkPolicy(draft, { checkReference: false });
    expect(check.body).toBeUndefined();
    expect(check.lines.some((line) => line.startsWith('body.scope.group_conditions.0.names_matching: '))).toBe(true);
  });
});

const STORED: SupervisionPolicy = {
  policy_reference: 'conduct',
  kind: 'Lexicon',
  description: 'Promises and off-channel talk',
  is_enabled: true,
  scope: { group_conditions: [{ names_matching: 'sales-*', is_denied: false, is_regex: false }, { keys_matching: 'vip', is_denied: true, is_regex: false }], device_user_references: ['du-1'], payload_types: ['SMS', 'MMS'] },
  terms: ['guarantee', 'whatsapp'],
  sample_minimum: 1,
  review_days: 5,
  policy_version: 2,
};

describe('a stored policy', () => {
  it('round-trips through the editor to the same request', () => {
    const draft = draftOfPolicy(STORED);
    expect(draft.termsText).toBe('guarantee\nwhatsapp');
    expect(requestOf(draft)).toEqual({
      kind: 'Lexicon',
      description: 'Promises and off-channel talk',
      is_enabled: true,
      scope: {
        group_conditions: [
          { names_matching: 'sales-*', is_denied: false, is_regex: false },
          { keys_matching: 'vip', is_denied: true, is_regex: false },
        ],
        device_user_references: ['du-1'],
        payload_types: ['SMS', 'MMS'],
      },
      terms: ['guarantee', 'whatsapp'],
      review_days: 5,
    });
  });

  it('says its scope and rule in words', () => {
    expect(scopeWords(STORED.scope, PAYLOAD_TYPE_LABELS)).toBe(
      `${PAYLOAD_TYPE_LABELS.SMS} and ${PAYLOAD_TYPE_LABELS.MMS} of groups whose name is like "sales-*" except groups with a tag whose key is like "vip" and device users du-1`,
    );
    expect(scopeWords({ group_conditions: [], device_user_references: [], payload_types: ['Call'] }, PAYLOAD_TYPE_LABELS)).toBe(`${PAYLOAD_TYPE_LABELS.Call} of everyone recorded`);
    expect(ruleWords(STORED)).toBe('2 terms');
    expect(ruleWords({ kind: 'Sampling', terms: [], sample_percent: 10, sample_minimum: 1 })).toBe("10 % of each person's recordings, at least 1 a person a day");
  });
});

describe('changing a policy’s kind', () => {
  it('keeps only the payload types the new kind reads, or all it reads when none is left', () => {
    expect(typesKeptFor('Sampling', ['SMS', 'Interview', 'Photo'])).toEqual(['Interview', 'Photo']);
    expect(typesKeptFor('Sampling', ['SMS', 'MMS'])).toEqual(['Call', 'Interview', 'Photo', 'Video']);
    expect(typesKeptFor('Lexicon', ['Call', 'Video'])).toEqual(['Video']);
  });
});
