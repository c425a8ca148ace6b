import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { parsePattern, PatternError, type RegexNode } from './parse.ts';
import { compileRegex, runProgram } from './program.ts';

/** Our verdict: a matcher, 'refused', or 'left out' for an RE2 construct we choose not to support. */
function ours(pattern: string): ((value: string) => boolean) | 'refused' | 'left out' {
  try {
    const program = compileRegex(pattern);
    return (value) => runProgram(program, value).matched;
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    return /not supported/.test(error.message) ? 'left out' : 'refused';
  }
}

function reference(pattern: string): ((value: string) => boolean) | undefined {
  try {
    const compiled = RE2JS.compile(pattern);
    return (value) => compiled.matches(value);
  } catch {
    return undefined;
  }
}

/** Small seeded generator (mulberry32), so a failure names a pattern that reproduces. */
function seeded(seed: number): (limit: number) => number {
  let state = seed >>> 0;
  return (limit) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * limit);
  };
}

const ATOMS = ['a', 'b', 'c', '-', '.', '\\d', '\\w', '\\s', '\\D', '\\W', '\\S', '\\.', '\\-', '\\n', '\\x61', '\\x{62}'];
const CLASSES = ['[ab]', '[^a]', '[a-c]', '[\\d_]', '[^\\s]', '[]a]', '[a-]', '[-b]', '[^\\n]', '[\\w-]', '[.]'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,}', '{0,2}', '{1,3}', '{0}', '*?', '+?', '??', '{1,2}?'];
/** Tokens that make many patterns invalid, so the two engines are also compared on refusals. */
const BROKEN = ['(', ')', '*', '[', '{2}', '**', '[b-a]', '\\', '+?+', '{1001}', '[]', '|*'];

function generatePattern(random: (limit: number) => number, depth = 0): string {
  const pieces = 1 + random(4);
  let text = '';
  for (let piece = 0; piece < pieces; piece += 1) {
    const roll = random(100);
    let atom: string;
    if (roll < 40) atom = ATOMS[random(ATOMS.length)] as string;
    else if (roll < 55) atom = CLASSES[random(CLASSES.length)] as string;
    else if (roll < 70 && depth < 3) atom = `${random(2) === 0 ? '(' : '(?:'}${generatePattern(random, depth + 1)})`;
    else if (roll < 78 && depth < 3) atom = `(?:${generatePattern(random, depth + 1)}|${generatePattern(random, depth + 1)})`;
    else if (roll < 83) atom = random(2) === 0 ? '^' : '$';
    else if (roll < 86) atom = BROKEN[random(BROKEN.length)] as string;
    else atom = 'ab'[random(2)] as string;
    if (random(3) === 0) atom += QUANTIFIERS[random(QUANTIFIERS.length)];
    text += atom;
  }
  if (random(8) === 0) text += `|${generatePattern(random, depth + 1)}`;
  return text;
}

const INPUT_ALPHABET = ['a', 'b', 'c', 'a', 'b', '1', '_', ' ', '\n', '-', '.', 'é'];

function generateInput(random: (limit: number) => number): string {
  let text = '';
  const length = random(7);
  for (let index = 0; index < length; index += 1) text += INPUT_ALPHABET[random(INPUT_ALPHABET.length)];
  return text;
}

/** A value the pattern probably matches (anchors aside), so the comparison covers matches, not only misses. */
function sampleMatch(node: RegexNode, random: (limit: number) => number): string {
  switch (node.kind) {
    case 'set': {
      const fitting = INPUT_ALPHABET.filter((char) => {
        const code = char.codePointAt(0) as number;
        for (let i = 0; i < node.ranges.length; i += 2) if (code >= (node.ranges[i] as number) && code <= (node.ranges[i + 1] as number)) return true;
        return false;
      });
      return fitting.length > 0 ? (fitting[random(fitting.length)] as string) : String.fromCodePoint(node.ranges[0] as number);
    }
    case 'concat':
      return node.items.map((item) => sampleMatch(item, random)).join('');
    case 'alternate':
      return sampleMatch(node.options[random(node.options.length)] as RegexNode, random);
    case 'repeat': {
      const count = node.min + random((node.max < 0 ? node.min + 3 : node.max) - node.min + 1);
      return Array.from({ length: count }, () => sampleMatch(node.item, random)).join('');
    }
    default:
      return '';
  }
}

describe('linear-time regex engine against re2js', () => {
  it('agrees on accepting or refusing generated patterns and on every match', () => {
    const random = seeded(20_260_124);
    let accepted = 0;
    let matchedInputs = 0;
    for (let round = 0; round < 2000; round += 1) {
      const pattern = generatePattern(random);
      const mine = ours(pattern);
      const theirs = reference(pattern);
      if (mine === 'left out') continue;
      expect({ pattern, accepted: mine !== 'refused' }).toEqual({ pattern, accepted: theirs !== undefined });
      if (mine === 'refused' || theirs === undefined) continue;
      accepted += 1;
      for (let sample = 0; sample < 30; sample += 1) {
        const input = sample % 2 === 0 ? generateInput(random) : sampleMatch(parsePattern(pattern), random);
        const matched = theirs(input);
        if (matched) matchedInputs += 1;
        expect({ pattern, input, matched: mine(input) }).toEqual({ pattern, input, matched });
      }
    }
    // The generator must mostly produce valid patterns, or the match comparison would prove little.
    expect(accepted).toBeGreaterThan(1000);
    expect(matchedInputs).toBeGreaterThan(10_000);
  }, 30_000);

  it('agrees on hand-written cases', () => {
    const cases: Array<[string, string[]]> = [
      ['devices:(List|Get)', ['devices:List', 'devices:Get', 'devices:Put', 'devices:', 'xdevices:List']],
      ['a{2,3}', ['a', 'aa', 'aaa', 'aaaa']],
      ['a{2,}b', ['ab', 'aab', 'aaaaab']],
      ['(a*)*', ['', 'aaa', 'b']],
      ['(|a)+b', ['b', 'ab', 'aab']],
      ['^a$|^b', ['a', 'b', 'ab']],
      ['a$b', ['ab', 'a']],
      ['.', ['\n', 'a', 'é', '😀']],
      ['[^a]', ['\n', 'b', 'a']],
      ['\\S+', ['ab', 'a b', 'a\nb']],
      ['a{,2}', ['a{,2}', 'aa']],
      ['a{', ['a{']],
      ['x{0}y', ['y', 'xy']],
      ['[\\x{1F600}-\\x{1F64F}]', ['😀', 'a']],
      ['\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\', ['*+?()[]{}|^$\\']],
      ['[a-c-e]', ['-', 'b', 'd', 'e']],
      ['(?:ab)*?c', ['c', 'ababc', 'abc', 'abac']],
    ];
    for (const [pattern, inputs] of cases) {
      const mine = ours(pattern);
      const theirs = reference(pattern);
      if (typeof mine !== 'function' || theirs === undefined) throw new Error(`${pattern} should compile in both engines`);
      for (const input of inputs) expect({ pattern, input, matched: mine(input) }).toEqual({ pattern, input, matched: theirs(input) });
    }
  });

  it('refuses what RE2 refuses, and the RE2 features it leaves out, naming the construct', () => {
    const refusals: Array<[string, RegExp]> = [
      ['(?=a)', /look-around/],
      ['(?<!a)b', /look-around/],
      ['(a)\\1', /back-references/],
      ['\\pL', /Unicode class/],
      ['\\p{Greek}', /Unicode class/],
      ['(?i)abc', /inline flags/],
      ['(?P<name>a)', /named group/],
      ['\\bword', /word boundary/],
      ['[[:alpha:]]', /POSIX class/],
      ['\\Qa.b\\E', /quoting/],
      ['\\Aa', /\\A/],
      ['a**', /repeats a repetition/],
      ['*a', /nothing before it/],
      ['(a|*)', /nothing before it/],
      ['a{1001}', /invalid repeat count/],
      ['a{3,2}', /invalid repeat count/],
      ['(a{100}){100}', /multiply past 1000/],
      ['(a', /missing a closing "\)"/],
      ['a)', /without a matching/],
      ['[a', /missing a closing "\]"/],
      ['[z-a]', /runs backwards/],
      ['a\\', /lone backslash/],
      ['\\y', /unknown escape/],
      ['\\x{110000}', /invalid \\x escape/],
      ['.{1000}'.repeat(30), /too large/],
    ];
    for (const [pattern, reason] of refusals) {
      expect(() => compileRegex(pattern), pattern).toThrow(reason);
    }
  });
});

describe('linear-time guarantee', () => {
  it('runs hostile patterns on 10,000-character inputs within a counted step bound', () => {
    const inputs = ['a'.repeat(10_000), `${'a'.repeat(9_999)}!`, `${'ab'.repeat(5_000)}`];
    for (const pattern of ['(a+)+$', '(a|a)*b', '(.*){20}', '(a|aa)+$', '(a*)*b', '(?:a?){30}a{30}', '(\\w+\\s?)+$']) {
      const program = compileRegex(pattern);
      for (const input of inputs) {
        const { matched, steps } = runProgram(program, input);
        expect(matched).toBe(reference(pattern)?.(input));
        // Each instruction is visited at most once when threads are added and once when they step, per position.
        expect(steps, pattern).toBeLessThanOrEqual(2 * program.instructions.length * (input.length + 1));
      }
    }
  });

  it('counts work that grows with the input, so the bound above is not vacuous', () => {
    const program = compileRegex('(a|a)*b');
    const short = runProgram(program, 'a'.repeat(100)).steps;
    const long = runProgram(program, 'a'.repeat(1000)).steps;
    expect(long).toBeGreaterThan(9 * short);
    expect(long).toBeLessThan(11 * short);
  });
});
