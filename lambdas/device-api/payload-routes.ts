import { deviceOf } from '#core/auth/actor.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { createUploadUrl, payloadStateFor, registerPayload } from '../payloads/public.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';

const uploadUrl = endpointOf(deviceApiEndpoints, 'device.payloads.upload-url');
const register = endpointOf(deviceApiEndpoints, 'device.payloads.register');
const state = endpointOf(deviceApiEndpoints, 'device.payloads.state');

/** Payload upload: pre-signed URL, registration, state (lambdas/payloads/processing/registration.ts). */
export const devicePayloadRoutes: Routes = {
  [uploadUrl.id]: implement(uploadUrl, (input, deps) => createUploadUrl(deps, deviceOf(input.principal), input.body)),
  [register.id]: implement(register, (input, deps) => registerPayload(deps, deviceOf(input.principal), input.body)),
  [state.id]: implement(state, (input, deps) => payloadStateFor(deps, deviceOf(input.principal), input.params.payload_reference)),
};
