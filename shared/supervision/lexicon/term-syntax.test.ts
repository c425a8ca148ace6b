import { describe, expect, it } from 'vitest';
import { parseTerm, termProblem } from './term-syntax.ts';

describe('lexicon term syntax', () => {
  it('accepts words, phrases, prefixes, NEAR/n, NOT and literal symbols', () => {
    for (const term of ['guarantee', 'off the record', 'guarant*', 'delete NEAR/3 message', 'whatsapp NOT business', 'c++', '$100', 'a.b', 'a|b', '[x]', 'x^2', 'e-mail', "don't", '5*', 'x NEAR/1 y']) {
      expect(termProblem(term), term).toBeUndefined();
    }
  });

  it('refuses empty, blank, too long, symbol-only and too many words, with one message each', () => {
    expect(termProblem('')).toBe('Must contain a word');
    expect(termProblem(' \t\n ')).toBe('Must contain a word');
    expect(termProblem('.*')).toBe('Must contain a word');
    expect(termProblem('\\')).toBe('Must contain a word');
    expect(termProblem('***')).toBe('Must contain a word');
    expect(termProblem('🙂 !')).toBe('Must contain a word');
    expect(termProblem('a'.repeat(200))).toBeUndefined();
    expect(termProblem('a'.repeat(201))).toBe('Must be at most 200 characters');
    expect(termProblem('one two three four five six seven eight nine ten')).toBeUndefined();
    expect(termProblem('one two three four five six seven eight nine ten eleven')).toBe('A phrase must have at most 10 words');
  });

  it('refuses parentheses and nested or dangling operators', () => {
    expect(termProblem('(a|b)+')).toMatch(/^Must not use parentheses/);
    expect(termProblem('(guarantee NEAR/2 return) NOT disclaimer')).toMatch(/^Must not use parentheses/);
    expect(termProblem('a NEAR/2 b NEAR/3 c')).toBe('Must use at most one operator (NEAR/n or NOT): operators do not nest');
    expect(termProblem('a NOT b NOT c')).toBe('Must use at most one operator (NEAR/n or NOT): operators do not nest');
    expect(termProblem('a NEAR/2 b NOT c')).toBe('Must use at most one operator (NEAR/n or NOT): operators do not nest');
    expect(termProblem('NOT a')).toBe('NOT needs a phrase on each side');
    expect(termProblem('a NEAR/3')).toBe('NEAR/3 needs a phrase on each side');
    expect(termProblem('a NOT ...')).toBe('The phrase after NOT must contain a word');
    expect(termProblem('a b c d e f g h i j k NEAR/2 x')).toBe('The phrase before NEAR/2 must have at most 10 words');
  });

  it('takes NEAR/n only with n from 1 to 50, and only the upper-case operators', () => {
    expect(termProblem('a NEAR/1 b')).toBeUndefined();
    expect(termProblem('a NEAR/50 b')).toBeUndefined();
    for (const term of ['a NEAR/0 b', 'a NEAR/51 b', 'a NEAR/x b', 'a NEAR/ b', 'a NEAR b', 'a NEAR/-1 b', 'a NEAR/1.5 b', 'a NEAR/007 b']) {
      expect(termProblem(term), term).toBe('Write NEAR/n with n from 1 to 50 (the most words between the two phrases)');
    }
    expect(parseTerm('do not call')).toMatchObject({ parsed: { kind: 'phrase', phrase: { words: ['do', 'not', 'call'] } } });
    expect(parseTerm('meet near/2 office')).toMatchObject({ parsed: { kind: 'phrase' } });
  });

  it('reads a prefix only from a * directly after the last word; every other * is literal', () => {
    expect(parseTerm('guarant*')).toMatchObject({ parsed: { kind: 'phrase', phrase: { words: ['guarant'], prefix: true, trail: '' } } });
    expect(parseTerm('return guarant*')).toMatchObject({ parsed: { phrase: { words: ['return', 'guarant'], prefix: true } } });
    expect(parseTerm('guarant *')).toMatchObject({ parsed: { phrase: { prefix: false, trail: '*' } } });
    expect(parseTerm('guar*ant')).toMatchObject({ parsed: { phrase: { words: ['guar', 'ant'], prefix: false, gaps: ['*'] } } });
    expect(parseTerm('*guarantee')).toMatchObject({ parsed: { phrase: { prefix: false, lead: '*' } } });
    expect(parseTerm('guarantee**')).toMatchObject({ parsed: { phrase: { prefix: false, trail: '**' } } });
    expect(parseTerm('guarant* NEAR/2 return*')).toMatchObject({ parsed: { kind: 'near', first: { prefix: true }, second: { prefix: true }, distance: 2 } });
  });

  it('keeps whitespace between words as "any separator" and other characters as literal symbols', () => {
    expect(parseTerm('Off   The\tRecord')).toMatchObject({ parsed: { phrase: { words: ['off', 'the', 'record'], gaps: [null, null], lead: '', trail: '' } } });
    expect(parseTerm('e - mail')).toMatchObject({ parsed: { phrase: { words: ['e', 'mail'], gaps: ['-'] } } });
    expect(parseTerm('$ 1,000!')).toMatchObject({ parsed: { phrase: { words: ['1', '000'], gaps: [','], lead: '$', trail: '!' } } });
    expect(parseTerm("'guarantee'")).toMatchObject({ parsed: { phrase: { words: ['guarantee'], lead: "'", trail: "'" } } });
  });

  it('never throws, whatever the input', () => {
    const hostile = ['\u0000', '\uD800', '\uDC00x', 'x\uD83D', '\u200B', 'NEAR/', 'NOT', 'NEAR/1', '*', ' * ', 'a'.repeat(100_000), '('.repeat(500), '\\'.repeat(199), '💣'.repeat(50)];
    for (const term of hostile) expect(() => termProblem(term)).not.toThrow();
  });
});
