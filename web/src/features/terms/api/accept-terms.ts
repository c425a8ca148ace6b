import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `PUT terms`: accept the terms in force. */
export const acceptTermsEndpoint = endpointOf(identityEndpoints, 'admin.terms.accept');
