import { productionEndpoints } from '#shared/contract/endpoints/productions.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import type { Production } from '#shared/contract/entities/productions.ts';
import { PENDING_POLL_MS, useCursorList, useEndpointMutation, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `POST cases/{case_ref}/productions`: produce a case's records. */
export const createCaseProduction = endpointOf(productionEndpoints, 'client.productions.create-for-case');
/** `POST productions`: a search's records, or a client copy. */
export const createProduction = endpointOf(productionEndpoints, 'client.productions.create');
/** `GET productions`: the production log, newest first (one case's with `case_ref`). */
export const listProductions = endpointOf(productionEndpoints, 'client.productions.list');
/** `GET productions/{production_reference}`: one production and its progress. */
const getProduction = endpointOf(productionEndpoints, 'client.productions.get');
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

/** One production, asked again while it runs. */
export function useProduction(reference: string) {
  return useEndpointQuery(
    getProduction,
    { params: { production_reference: reference } },
    { refetchInterval: (query) => (query.state.data !== undefined && productionRunning(query.state.data) ? PENDING_POLL_MS : false) },
  );
}

/** Start a search production or a client copy; the log shows it at once. */
export function useCreateProduction() {
  return useEndpointMutation(createProduction, { invalidates: [listProductions], formErrors: true });
}

export function useDownloadProduction() {
  return useEndpointMutation(downloadProduction);
}

/** The tenant's transfer configurations: a production may go to one's target instead of a download link. */
const listTransferConfigs = endpointOf(transferEndpoints, 'client.transfer-configs.list');

/** The transfer configurations a production may go to; none asked for when the role may not list them. */
export function useTransferDestinations(allowed: boolean) {
  return useCursorList(listTransferConfigs, { query: {} }, { enabled: allowed });
}
