import { describe, expect, it } from 'vitest';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { createLogger } from '../logger.ts';
import type { Dependencies } from '../dependencies.ts';
import { eventFor, testContext } from '../testing/http-events.ts';
import { createApiHandler } from './create-api-handler.ts';
import { apiRecorders } from '../../api-recorders.ts';

/**
 * Nothing but the request's log and its capacity report (local mode: a debug line) is reached when routing refuses
 * an unknown route; any other use of these fails the test.
 */
const unused = { logger: createLogger({ level: 'error' }), config: { VERITY_MODE: 'local' } } as unknown as Dependencies;

describe('createApiHandler over a group-own endpoint list', () => {
  it('refuses, at load, a list that names another group or is empty', () => {
    expect(() => createApiHandler({ recorders: apiRecorders, group: 'transfers', endpoints: [...transferEndpoints, deviceEndpoints[0]], routes: {} })).toThrow(
      /transfers handler needs its group's endpoints, not admin\.dashboard\.get/,
    );
    expect(() => createApiHandler({ recorders: apiRecorders, group: 'transfers', endpoints: [], routes: {} })).toThrow(/transfers handler needs its group's endpoints/);
  });

  it("still answers 404 for another group's route key", async () => {
    const handler = createApiHandler({ recorders: apiRecorders, group: 'transfers', endpoints: transferEndpoints, routes: {}, dependencies: unused });
    const result = await handler(eventFor(deviceEndpoints[0], { pathParameters: { client: 'acme' } }), testContext);
    expect(result.statusCode).toBe(404);
  });
});
