import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeResponseMismatch, fieldRequired, formatIssues, MESSAGES, provideValidType, UNEXPECTED_DATA } from './messages.ts';

const issuesOf = (schema: z.ZodType, value: unknown, prefix?: string): string[] => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return formatIssues(result.error, prefix);
};

describe('formatIssues', () => {
  const Body = z.strictObject({ first_name: z.string(), count: z.int(), nested: z.object({ flag: z.boolean() }).optional() });

  it('reads a missing field as the spec says, word for word', () => {
    expect(issuesOf(Body, { count: 1 }, 'body')).toEqual(['body.first_name: The first_name field is required.']);
    expect(fieldRequired('x')).toBe('The x field is required.');
  });

  it('reads a wrong type as the spec says, naming the type', () => {
    expect(issuesOf(Body, { first_name: 3, count: 'many' }, 'body')).toEqual([
      'body.first_name: Please provide a valid string for the field.',
      'body.count: Please provide a valid number for the field.',
    ]);
    expect(issuesOf(Body, { first_name: 'a', count: 1.5 }, 'body')).toEqual([
      'body.count: Please provide a valid integer for the field.',
    ]);
    expect(provideValidType('number')).toBe('Please provide a valid number for the field.');
  });

  it('joins nested paths with dots and numbers array indexes', () => {
    const List = z.strictObject({ items: z.array(z.object({ flag: z.boolean() })) });
    expect(issuesOf(List, { items: [{ flag: true }, { flag: 'yes' }] }, 'body')).toEqual([
      'body.items.1.flag: Please provide a valid boolean for the field.',
    ]);
  });

  it('gives one line per unknown key of a strict object', () => {
    expect(issuesOf(Body, { first_name: 'a', count: 1, colour: 'red', size: 2 }, 'query')).toEqual([
      'query.colour: This field is not allowed.',
      'query.size: This field is not allowed.',
    ]);
  });

  it('uses the prefix for a root issue, and the message alone without one', () => {
    expect(issuesOf(Body, 'not an object', 'body')).toEqual(['body: Please provide a valid object for the field.']);
    expect(issuesOf(Body, undefined, 'body')).toEqual(['body: The body field is required.']);
    expect(issuesOf(z.string(), 5)).toEqual(['Please provide a valid string for the field.']);
  });

  it('keeps custom messages word for word and translates zod defaults', () => {
    const S = z.strictObject({ cidr: z.string().regex(/^x$/, { error: MESSAGES.cidr }), name: z.string().min(3), kind: z.enum(['A', 'B']) });
    expect(issuesOf(S, { cidr: 'y', name: 'ab', kind: 'C' }, 'body')).toEqual([
      'body.cidr: Must be a valid CIDR range',
      'body.name: Must be at least 3 characters',
      'body.kind: Must be one of: A, B',
    ]);
  });

  it('never lets a hostile key or value break the line format', () => {
    const lines = issuesOf(Body, { first_name: 'a', count: 1, '__proto__\n: x': 1 }, 'body');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith('body.__proto__')).toBe(true);
  });
});

describe('describeResponseMismatch', () => {
  it('lists the problems then JSON: and the first 200 characters', () => {
    const text = JSON.stringify({ data: 'x'.repeat(300) });
    const message = describeResponseMismatch('Invalid response from GET /devices', ['count: Please provide a valid integer for the field.'], text);
    expect(message.split('\n')).toEqual([
      'Invalid response from GET /devices',
      'count: Please provide a valid integer for the field.',
      `JSON: ${text.slice(0, 200)}`,
    ]);
  });

  it('says Unexpected data received. when there is no detailed list', () => {
    for (const issues of [undefined, []]) {
      expect(describeResponseMismatch('Bad response', issues, 'oops').split('\n')).toEqual(['Bad response', UNEXPECTED_DATA, 'oops']);
    }
    expect(UNEXPECTED_DATA).toBe('Unexpected data received.');
  });

  it('quotes at most 200 characters', () => {
    const message = describeResponseMismatch('p', undefined, 'y'.repeat(1000));
    expect(message.split('\n')[2]).toHaveLength(200);
  });
});

describe('formatIssues de-duplication', () => {
  it('gives a repeated path and message once', () => {
    const S = z.string().min(5, { error: 'Bad' }).regex(/^a/, { error: 'Bad' });
    expect(formatIssues(S.safeParse('b').error!, 'body')).toEqual(['body: Bad']);
  });
});
