import type { DevicePrincipal } from '#core/auth/principal.ts';
import { UnauthorizedError } from '#core/errors.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { createUploadUrl, payloadStateFor, registerPayload } from '../payloads/processing/registration.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

// The contract's order types each route; the ids are checked at load so a reordering fails loudly.
const [uploadUrl, register, state] = [deviceApiEndpoints[7], deviceApiEndpoints[8], deviceApiEndpoints[9]];
for (const [endpoint, id] of [
  [uploadUrl, 'device.payloads.upload-url'],
  [register, 'device.payloads.register'],
  [state, 'device.payloads.state'],
] as const) {
  if (endpoint.id !== id) throw new Error(`device-api payload routes expected ${id}, found ${endpoint.id}`);
}

/** The verified device (the pipeline authenticated it; this narrows the type). Tenant and device come from it only. */
function deviceOf(principal: unknown): DevicePrincipal {
  const device = principal as DevicePrincipal | undefined;
  if (device?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return device;
}

/** Payload upload: pre-signed URL, registration, state (lambdas/payloads/processing/registration.ts). */
export const devicePayloadRoutes: Routes = {
  [uploadUrl.id]: implement(uploadUrl, (input, deps) => createUploadUrl(deps, deviceOf(input.principal), input.body)),
  [register.id]: implement(register, (input, deps) => registerPayload(deps, deviceOf(input.principal), input.body)),
  [state.id]: implement(state, (input, deps) => payloadStateFor(deps, deviceOf(input.principal), input.params.payload_reference)),
};
