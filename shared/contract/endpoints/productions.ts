import { Ulid } from '../fields.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageOrTotal } from '../entities/common.ts';
import { CreateCaseProduction, CreateSearchProduction, Production, ProductionDownload } from '../entities/productions.ts';
import { params } from './params.ts';
import { listQuery } from './query.ts';

/**
 * Productions (docs/productions.md): a case's records, a search's or a client's copy, produced as natives, EML, EDRM
 * XML 1.2, a Concordance DAT and a manifest, delivered to a transfer configuration's target or as a download link.
 * A case's productions are seen only by the case team (404 otherwise, as for the case itself).
 */
const base = { surface: 'client', auth: 'client-app', group: 'cases' } as const;

export const productionEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.productions.create-for-case',
    method: 'POST',
    path: '/cases/{case_ref}/productions',
    action: 'productions:Create',
    summary: "Produce a case's records (its custodians, counterparty numbers, period and types); control numbers continue the case's.",
    params: params('case_ref'),
    body: CreateCaseProduction,
    response: Production,
  }),
  defineEndpoint({
    ...base,
    id: 'client.productions.create',
    method: 'POST',
    path: '/productions',
    action: 'productions:Create',
    summary: 'Produce the records of a search (custodians, counterparty numbers, period, types), or a client copy (`client_copy`: by counterparty number only).',
    body: CreateSearchProduction,
    response: Production,
  }),
  defineEndpoint({
    ...base,
    id: 'client.productions.list',
    method: 'GET',
    path: '/productions',
    action: 'productions:List',
    summary: 'The production log, newest first: what, when, by whom, to whom, which control numbers (one case with `case_ref`).',
    query: listQuery({ case_ref: Ulid.optional() }),
    response: pageOrTotal(Production),
  }),
  defineEndpoint({
    ...base,
    id: 'client.productions.get',
    method: 'GET',
    path: '/productions/{production_reference}',
    action: 'productions:List',
    summary: "One production and its progress: documents written of the total, state, failures.",
    params: params('production_reference'),
    response: Production,
  }),
  defineEndpoint({
    ...base,
    id: 'client.productions.download',
    method: 'GET',
    path: '/productions/{production_reference}/download',
    action: 'productions:Download',
    summary: 'A short-lived link to a production delivered as a download (409 until it has succeeded).',
    params: params('production_reference'),
    response: ProductionDownload,
  }),
];
