import { describe, expect, it } from 'vitest';
import { AuthExpiredError } from './session/session.ts';
import { ApiError, ResponseShapeError } from './api-error.ts';
import { errorNotice } from './error-notice.ts';

describe('errorNotice', () => {
  it('says "Data not found" on 404 and the validation lines otherwise', () => {
    expect(errorNotice(new ApiError(404, 404, ['Device not found'], 'admin.devices.get'))).toEqual({
      title: 'An error occurred',
      message: 'Data not found',
      signInAgain: false,
    });
    expect(errorNotice(new ApiError(400, 400, ['query.limit: Too big', 'query.from: Invalid date'], 'x')).message).toBe(
      'query.limit: Too big\nquery.from: Invalid date',
    );
  });

  it('says a refusal and a missing recording in words, keeping the codes in the lines', () => {
    const refused = new ApiError(403, 403, ['Access denied: your roles do not allow payloads:Download'], 'x', ['Your roles do not allow downloading recordings.']);
    expect(errorNotice(refused).message).toBe('Your roles do not allow downloading recordings.');
    expect(refused.lines).toEqual(['Access denied: your roles do not allow payloads:Download']);
    const missing = new ApiError(404, 404, ['NoMatchingRecord: Payload not found'], 'x', ['This recording was not found.']);
    expect(errorNotice(missing).message).toBe('This recording was not found.');
  });

  it('sends the user to sign in on an expired session or a 401', () => {
    expect(errorNotice(new AuthExpiredError())).toMatchObject({ title: 'Authentication expired', signInAgain: true });
    expect(errorNotice(new ApiError(401, 401, ['Unauthorized'], 'x'))).toMatchObject({ signInAgain: true });
  });

  it('shows the response-shape text of point 5 as it is', () => {
    const shape = new ResponseShapeError('GET /api/v1/{client}/devices (admin.devices.list): data.0.imei: Required', 'admin.devices.list');
    expect(errorNotice(shape).message).toContain('data.0.imei: Required');
  });

  it('never shows an empty message', () => {
    expect(errorNotice('weird').message).not.toBe('');
    expect(errorNotice(new Error('')).message).not.toBe('');
  });
});
