import { describe, expect, it } from 'vitest';
import { CreateErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { demoErasureRequest } from './erasure.ts';
import { fleetPlacements } from './fleet.ts';

describe('the demo erasure request', () => {
  it('is a request the contract accepts, about a person of the demo fleet, received before it is recorded', () => {
    const now = new Date();
    const request = demoErasureRequest(now);
    expect(CreateErasureRequest.safeParse(request).success).toBe(true);
    expect(fleetPlacements().map((user) => user.device_user_reference)).toContain(request.device_user_reference);
    expect(Date.parse(`${request.received_at}Z`)).toBeLessThan(now.getTime());
  });
});
