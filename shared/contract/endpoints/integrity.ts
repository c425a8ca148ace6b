import { defineEndpoint } from '../endpoint.ts';
import { IntegrityChecksResponse } from '../entities/integrity.ts';

/** Record integrity's fixity figures: served by the `audit` group, whose trail they are evidence beside. */
const base = { surface: 'admin', auth: 'user', group: 'audit' } as const;

export const integrityEndpoints = [
  defineEndpoint({
    ...base,
    id: 'admin.integrity.list',
    method: 'GET',
    path: '/integrity',
    // The fixity runs are audit evidence of the stored recordings, read with the audit trail's permission.
    action: 'activities:List',
    summary: 'The fixity job\'s latest runs for the tenant (the spec\'s IntegrityCheck), newest first: objects and bytes verified, failures, the cycle\'s progress.',
    response: IntegrityChecksResponse,
  }),
  defineEndpoint({
    surface: 'internal',
    auth: 'user',
    group: 'audit',
    id: 'internal.clients.integrity.list',
    method: 'GET',
    path: '/clients/{client}/integrity',
    // The spec files the IntegrityCheck under the internal console's "per-client statistics on stores": staff read it
    // with the statistics' own right.
    action: 'internal:ReadStatistics',
    summary: 'A client\'s latest fixity runs (the spec\'s IntegrityCheck), newest first, for the internal console.',
    response: IntegrityChecksResponse,
  }),
] as const;
