import { describe, expect, it } from 'vitest';
import { ApiError, ResponseShapeError } from './api-error.ts';
import { createQueryClient, shouldRetry, shownByTheForm } from './query-client.ts';

describe('form errors and notifications', () => {
  const refused = (status: number) => new ApiError(status, status, ['body.group: Unknown group'], 'admin.users.create');

  it('leaves refused input to a form that shows it under its fields', () => {
    expect(shownByTheForm(refused(400), { formErrors: true })).toBe(true);
    expect(shownByTheForm(refused(409), { formErrors: true })).toBe(true);
  });

  it('still notifies without the flag, and for sign-in, permission, throttling and server failures', () => {
    expect(shownByTheForm(refused(400), undefined)).toBe(false);
    for (const status of [401, 403, 429, 500]) expect(shownByTheForm(refused(status), { formErrors: true })).toBe(false);
    expect(shownByTheForm(new Error('network'), { formErrors: true })).toBe(false);
  });

  it('the mutation cache reports only what no form shows', async () => {
    const reported: unknown[] = [];
    const client = createQueryClient({ onError: (error) => reported.push(error) });
    const run = (meta: Record<string, unknown> | undefined, error: Error) =>
      client.getMutationCache().build(client, { mutationFn: () => Promise.reject(error), meta, retry: false }).execute(undefined).catch(() => undefined);
    await run({ formErrors: true }, refused(400));
    await run(undefined, refused(400));
    await run({ formErrors: true }, refused(403));
    expect(reported.map((error) => (error as ApiError).status)).toEqual([400, 403]);
  });
});

describe('shouldRetry', () => {
  it('retries server and network failures twice, never client errors or contract mismatches', () => {
    expect(shouldRetry(0, new ApiError(503, 503, ['x'], 'e'))).toBe(true);
    expect(shouldRetry(0, new ApiError(429, 429, ['x'], 'e'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 503, ['x'], 'e'))).toBe(false);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, new ApiError(404, 404, ['x'], 'e'))).toBe(false);
    expect(shouldRetry(0, new ResponseShapeError('x', 'e'))).toBe(false);
  });
});
