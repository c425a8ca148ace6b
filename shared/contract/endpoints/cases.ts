import { CaseState } from '../../constants/cases.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageOrTotal } from '../entities/common.ts';
import { Case, CaseCreateRequest, CasePerson, CaseUpdateRequest } from '../entities/cases.ts';
import { params } from './params.ts';
import { listQuery } from './query.ts';

/**
 * Cases (matters, docs/cases.md). Every call needs the endpoint's action AND a place on the case's team: a case whose
 * team does not name the caller answers 404, as if absent, in lists and counts too (tenant admins included; staff in
 * support mode only when the team allows it with `support_may_view`).
 */
const base = { surface: 'client', auth: 'client-app', group: 'cases' } as const;

export const caseEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.cases.list',
    method: 'GET',
    path: '/cases',
    action: 'cases:List',
    summary: 'The cases whose team names the caller, newest first (one state with `state`).',
    query: listQuery({ state: CaseState.optional() }),
    response: pageOrTotal(Case),
  }),
  defineEndpoint({
    ...base,
    id: 'client.cases.people',
    method: 'GET',
    path: '/cases/people',
    action: 'cases:List',
    summary: "The tenant's portal users by name, to pick a case's team and portal-user custodians from.",
    query: listQuery({}),
    response: pageOrTotal(CasePerson),
  }),
  defineEndpoint({
    ...base,
    id: 'client.cases.create',
    method: 'POST',
    path: '/cases',
    action: 'cases:Create',
    summary: 'Open a case; the caller joins its team. With `collect_and_hold`, each custodian device user is put on legal hold.',
    body: CaseCreateRequest,
    response: Case,
  }),
  defineEndpoint({
    ...base,
    id: 'client.cases.get',
    method: 'GET',
    path: '/cases/{case_ref}',
    action: 'cases:Read',
    summary: 'One case the caller is on the team of (404 otherwise).',
    params: params('case_ref'),
    response: Case,
  }),
  defineEndpoint({
    ...base,
    id: 'client.cases.update',
    method: 'PUT',
    path: '/cases/{case_ref}',
    action: 'cases:Update',
    summary: 'Change an Open case: title, description, custodians, counterparty numbers, period, payload types, team, support visibility.',
    params: params('case_ref'),
    body: CaseUpdateRequest,
    response: Case,
  }),
  defineEndpoint({
    ...base,
    id: 'client.cases.close',
    method: 'POST',
    path: '/cases/{case_ref}/close',
    action: 'cases:Close',
    summary: 'Close a case: it is kept as it is, and the legal holds it placed (and only those) are released.',
    params: params('case_ref'),
    response: Case,
  }),
];
