import { LegalHoldTargetType, MigrationState } from '../../constants/account.ts';
import { defineEndpoint } from '../endpoint.ts';
import { AccountMigrationConfig, AccountMigrationConfigRequest } from '../entities/account.ts';
import {
  LegacyMigration,
  LegalHold,
  LegalHoldRequest,
  RetentionPolicy,
  RetentionPolicyRequest,
} from '../entities/account-data.ts';
import { pageOrTotal } from '../entities/common.ts';
import { QueryBoolean } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'account-data' } as const;

export const accountDataEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.account.migration.get',
    method: 'GET',
    path: '/account/migration',
    action: 'migration:Read',
    summary: 'Legacy migration switches (onboarding, offboarding, payloads).',
    response: AccountMigrationConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.migration.put',
    method: 'PUT',
    path: '/account/migration',
    action: 'migration:Update',
    summary: 'Replace the legacy migration switches.',
    body: AccountMigrationConfigRequest,
    response: AccountMigrationConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.retention.get',
    method: 'GET',
    path: '/account/retention',
    action: 'retention:Read',
    summary: 'Retention policy per record type.',
    response: RetentionPolicy,
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.retention.put',
    method: 'PUT',
    path: '/account/retention',
    action: 'retention:Update',
    summary: 'Replace the retention policy.',
    body: RetentionPolicyRequest,
    response: RetentionPolicy,
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.list',
    method: 'GET',
    path: '/account/legal_holds',
    action: 'legalHolds:List',
    summary: 'Legal holds on portal users and device users.',
    query: listQuery({ target_type: LegalHoldTargetType.optional(), active_only: QueryBoolean.optional() }),
    response: pageOrTotal(LegalHold),
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.put',
    method: 'PUT',
    path: '/account/legal_holds/{target_type}/{target}',
    action: 'legalHolds:Update',
    summary: 'Place (or update) a legal hold on a portal user or device user.',
    params: params('target_type', 'target'),
    body: LegalHoldRequest,
    response: LegalHold,
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.delete',
    method: 'DELETE',
    path: '/account/legal_holds/{target_type}/{target}',
    action: 'legalHolds:Release',
    summary: 'Release a legal hold (kept as an inactive record).',
    params: params('target_type', 'target'),
    response: LegalHold,
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.list',
    method: 'GET',
    path: '/migrations',
    action: 'migrations:List',
    summary: 'Legacy migration imports and their results.',
    query: listQuery({ ...dateRangeQuery, migration_state: MigrationState.optional() }),
    response: pageOrTotal(LegacyMigration),
  }),
] as const;
