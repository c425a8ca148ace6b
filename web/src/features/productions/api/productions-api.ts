import { productionEndpoints } from '#shared/contract/endpoints/productions.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { Production } from '#shared/contract/entities/productions.ts';
import { useCursorList, useEndpointMutation } from '../../../lib/api-hooks.ts';

/** `POST cases/{case_ref}/productions`: produce a case's records. */
export const createCaseProduction = endpointOf(productionEndpoints, 'client.productions.create-for-case');
/** `POST productions`: a search's records, or a client copy. */
/** `GET productions`: the production log, newest first (one case's with `case_ref`). */
export const listProductions = endpointOf(productionEndpoints, 'client.productions.list');
/** `GET productions/{production_reference}/download`: a short-lived link to a production delivered as a download. */
export const downloadProduction = endpointOf(productionEndpoints, 'client.productions.download');

/** A production still being written: its list asks again until none is. */
export const productionRunning = (production: Production) => production.production_state === 'Pending' || production.production_state === 'InProgress';

/** The log, or one case's productions; polled while one of them runs. */
export function useProductions(caseRef?: string) {
  return useCursorList(listProductions, { query: caseRef === undefined ? {} : { case_ref: caseRef } }, { pollWhile: productionRunning });
}

export function useCreateCaseProduction() {
  return useEndpointMutation(createCaseProduction, { invalidates: [listProductions], formErrors: true });
}

export function useDownloadProduction() {
  return useEndpointMutation(downloadProduction);
}
