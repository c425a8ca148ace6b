import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { bodyFieldPaths, errorLinesOf, formErrorsOf } from './form-errors.ts';

describe('formErrorsOf', () => {
  const paths = { ...bodyFieldPaths(['group', 'email', 'tags']), reference: 'params.group_reference' };

  it('puts a body line under its field and keeps the rest for above the form', () => {
    const errors = formErrorsOf(['body.group: Unknown group', 'body: At most 2 things', 'Something else'], paths);
    expect(errors.field).toEqual({ group: 'Unknown group' });
    expect(errors.general).toEqual(['body: At most 2 things', 'Something else']);
  });

  it('maps params lines and keeps the sub-path of a line deeper in a field', () => {
    const errors = formErrorsOf(['params.group_reference: Too short', 'body.tags.1.tag_key: Unknown tag'], paths);
    expect(errors.field).toEqual({ reference: 'Too short', tags: '1.tag_key: Unknown tag' });
  });

  it('keeps the first message of a field and does not match a field by a shared prefix', () => {
    const errors = formErrorsOf(['body.email: Invalid email', 'body.email: Too long', 'body.emails: Nope'], paths);
    expect(errors.field.email).toBe('Invalid email');
    expect(errors.general).toEqual(['body.emails: Nope']);
  });

  it('reads the lines of an ApiError', () => {
    expect(errorLinesOf(new ApiError(400, 400, ['body.group: x'], 'id'))).toEqual(['body.group: x']);
  });
});
