import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  InternalError,
  ItemTooLargeError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  toErrorResponse,
  UnauthorizedError,
  UnstorableNumberError,
  ValidationError,
} from './errors.ts';

describe('toErrorResponse', () => {
  it('maps each error class to its status and shows 4xx lines', () => {
    const cases: Array<[Error, number]> = [
      [new ValidationError(['body.name: required', 'query.limit: Must be at least 1']), 400],
      [new UnauthorizedError('Token expired'), 401],
      [new ForbiddenError(), 403],
      [new NotFoundError(), 404],
      [new ConflictError(), 409],
      [new PayloadTooLargeError('body: too large'), 413],
      [new ItemTooLargeError('tag_values'), 413],
      [new UnstorableNumberError(), 400],
    ];
    for (const [error, status] of cases) {
      const response = toErrorResponse(error);
      expect(response.status).toBe(status);
      expect(response.body.error_code).toBe(status);
      expect(response.body.message).toBe(error.message);
    }
    expect(toErrorResponse(new ValidationError(['a: x', 'b: y'])).body).toEqual({ error_code: 400, message: 'a: x\nb: y', errors: ['a: x', 'b: y'] });
    expect(toErrorResponse(new UnauthorizedError()).headers['www-authenticate']).toBe('Bearer');
  });

  it('says nothing internal on 5xx', () => {
    for (const error of [new Error('secret detail'), new InternalError('secret detail'), new ServiceUnavailableError('secret detail'), 'thrown string', null]) {
      const response = toErrorResponse(error);
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(JSON.stringify(response.body)).not.toContain('secret');
    }
    expect(toErrorResponse(new Error('x')).body).toEqual({ error_code: 500, message: 'Internal Server Error' });
    expect(toErrorResponse(new ServiceUnavailableError('x')).body).toEqual({ error_code: 503, message: 'Service Unavailable' });
  });

  it('shows the 501 message, which names only the contract', () => {
    expect(toErrorResponse(new NotImplementedError('Not implemented yet: GET /x (a.b)')).body.message).toBe('Not implemented yet: GET /x (a.b)');
  });
});

describe('ItemTooLargeError', () => {
  it('is a 413 whose line says the record is over the item limit, naming its largest part', () => {
    const error = new ItemTooLargeError('tag_values');
    expect(toErrorResponse(error).body.errors).toEqual([
      'body: Too large to store: the record would exceed the 400 KB item limit (its largest part is tag_values)',
    ]);
    expect(new ItemTooLargeError().lines).toEqual(['body: Too large to store: the record would exceed the 400 KB item limit']);
  });

  it('names the body field the largest part came from, when the body has one of that name', () => {
    const error = new ItemTooLargeError('tag_values');
    expect(error.within({ tag_values: [], is_required: false }).lines).toEqual(['body.tag_values: Too large to store: the record would exceed the 400 KB item limit']);
    expect(error.within({ other: 1 })).toBe(error);
    expect(error.within(undefined)).toBe(error);
    expect(new ItemTooLargeError('sealed_meta').within({ meta: 'x' }).lines[0]).toMatch(/^body: .*largest part is sealed_meta\)$/);
  });
});
