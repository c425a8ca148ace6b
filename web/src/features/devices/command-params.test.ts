import { describe, expect, it } from 'vitest';
import { toCommandParams } from './command-params.ts';

describe('toCommandParams', () => {
  it('reads each row by its kind and skips blank rows', () => {
    expect(
      toCommandParams([
        { name: 'message', value: 'Driving, will call back', kind: 'text' },
        { name: 'minutes', value: ' 30 ', kind: 'number' },
        { name: 'enabled', value: 'true', kind: 'boolean' },
        { name: ' ', value: '', kind: 'text' },
      ]),
    ).toEqual({ params: { message: 'Driving, will call back', minutes: 30, enabled: true }, errors: [] });
  });

  it('sends no params when no row is filled in', () => {
    expect(toCommandParams([])).toEqual({ errors: [] });
    expect(toCommandParams([{ name: '', value: '', kind: 'text' }])).toEqual({ errors: [] });
  });

  it('names every problem, path first', () => {
    expect(
      toCommandParams([
        { name: '', value: 'x', kind: 'text' },
        { name: 'n', value: 'many', kind: 'number' },
        { name: 'n', value: '1', kind: 'number' },
        { name: 'flag', value: 'maybe', kind: 'boolean' },
        { name: 'a'.repeat(61), value: '1', kind: 'text' },
      ]).errors,
    ).toEqual([
      'params.1: The name field is required.',
      'params.n: Please provide a valid number for the field.',
      'params.flag: Please provide a valid boolean for the field.',
      `params.${'a'.repeat(61)}: Must be at most 60 characters`,
    ]);
  });
});
