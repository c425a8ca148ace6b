import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPattern, matches } from './matchers.ts';

describe('wildcard matchers', () => {
  it('anchor, are case-sensitive and treat * and ? as wildcards only', () => {
    expect(matches('devices:*', false, 'devices:List')).toBe(true);
    expect(matches('devices:*', false, 'xdevices:List')).toBe(false);
    expect(matches('devices:*', false, 'Devices:List')).toBe(false);
    expect(matches('*:List', false, 'roles:List')).toBe(true);
    expect(matches('*:List', false, 'roles:ListAll')).toBe(false);
    expect(matches('r?les:*', false, 'roles:Get')).toBe(true);
    expect(matches('r?les:*', false, 'rles:Get')).toBe(false);
    expect(matches('a.c', false, 'abc')).toBe(false);
    expect(matches('*a*b*', false, 'xxaxxbxx')).toBe(true);
    expect(matches('*a*b', false, 'xxaxxbxx')).toBe(false);
  });

  it('* matches everything', () => {
    fc.assert(fc.property(fc.string(), (value) => matches('*', false, value)));
  });

  it('a pattern without wildcards matches only itself', () => {
    const plain = fc.string().filter((text) => text.length > 0 && !/[*?]/.test(text));
    fc.assert(fc.property(plain, plain, (pattern, value) => matches(pattern, false, value) === (pattern === value)));
  });

  it('finishes quickly on hostile wildcard patterns', () => {
    expect(matches('*a*a*a*a*a*a*a*a*a*a*b', false, 'a'.repeat(5000))).toBe(false);
  });
});

describe('regex matchers', () => {
  it('anchor the whole value', () => {
    expect(matches('devices:.*', true, 'devices:List')).toBe(true);
    expect(matches('devices', true, 'devices:List')).toBe(false);
    expect(matches('(roles|groups):(List|Get)', true, 'groups:Get')).toBe(true);
  });

  it('run hostile patterns on long input in linear time', () => {
    const long = `${'a'.repeat(50_000)}!`;
    for (const pattern of ['(a+)+$', '(a|aa)+$', '(a*)*b', '(.*a){20}']) expect(matches(pattern, true, long)).toBe(false);
  });

  it('never match when the pattern is invalid or unsupported, and say why', () => {
    for (const pattern of ['(a', '(?<=a)b', '(a)\\1', '[z-a]', '*']) {
      fc.assert(fc.property(fc.string(), (value) => !matches(pattern, true, value)));
      expect(checkPattern(pattern, true)).toMatch(/^Must be a valid regular expression/);
    }
  });
});

describe('checkPattern', () => {
  it('accepts valid patterns and refuses empty or long ones', () => {
    expect(checkPattern('devices:*', false)).toBeUndefined();
    expect(checkPattern('devices:.*', true)).toBeUndefined();
    expect(checkPattern('', false)).toBe('Must not be empty');
    expect(checkPattern('x'.repeat(256), false)).toBe('Must be at most 255 characters');
    expect(matches('x'.repeat(256), false, 'x'.repeat(256))).toBe(false);
  });
});
