import { deviceOf } from '#core/auth/actor.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';
import { uploadLedger } from '../completeness/public.ts';

const ledger = endpointOf(deviceApiEndpoints, 'device.ledger.upload');

/** The phone's sealed ledger report, for capture completeness (lambdas/completeness/ledger). */
export const deviceLedgerRoutes: Routes = {
  [ledger.id]: implement(ledger, (input, deps) => uploadLedger(deps, deviceOf(input.principal), input.body)),
};
