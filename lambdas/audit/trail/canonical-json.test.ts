import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, toStorableJson, type Json } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('spells objects with keys sorted, at every depth, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe('{"a":{"c":"x","d":[true,null]},"b":1}');
  });

  it('gives the same text for the same value whatever the key insertion order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = toStorableJson(value) as Json;
        const shuffled = JSON.parse(JSON.stringify(json, (_, entry: unknown) =>
          entry !== null && typeof entry === 'object' && !Array.isArray(entry)
            ? Object.fromEntries(Object.entries(entry).reverse())
            : entry,
        )) as Json;
        expect(canonicalJson(shuffled)).toBe(canonicalJson(json));
      }),
    );
  });

  it('is parseable JSON equal to the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = toStorableJson(value) as Json;
        expect(JSON.parse(canonicalJson(json))).toEqual(json);
      }),
    );
  });

  it('tells apart values that differ only in type or nesting', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ 'a,b': 1 })).not.toBe(canonicalJson({ a: { b: 1 } }));
  });
});

describe('toStorableJson', () => {
  it('turns what DynamoDB would refuse or alter into plain JSON that round-trips', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const stored = toStorableJson({
      missing: undefined,
      list: [undefined, 1],
      nan: Number.NaN,
      huge: 2 ** 60,
      tiny: 1e-200,
      negativeZero: -0,
      big: 10n,
      when: new Date('2025-01-02T03:04:05.000Z'),
      lone: 'a\uD800b',
      pair: '\uD83D\uDE00',
      '': 'empty key',
      fn: () => 1,
      circular,
    }) as Record<string, Json>;
    expect(stored).toMatchObject({
      list: [null, 1],
      nan: null,
      huge: String(2 ** 60),
      tiny: '1e-200',
      negativeZero: 0,
      big: '10',
      when: '2025-01-02T03:04:05.000Z',
      lone: 'a\uFFFDb',
      pair: '\uD83D\uDE00',
      '(empty)': 'empty key',
    });
    expect('missing' in stored).toBe(false);
    expect('fn' in stored).toBe(false);
    expect(JSON.stringify(stored)).toContain('[too deep]');
  });
});
