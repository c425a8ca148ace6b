import * as z from 'zod';
import { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const policiesPartition = (client: string) => `${tenantPrefix(client)}SUPERVISION_POLICIES`;

export const supervisionPolicyKeys = {
  item: (client: string, policyReference: string): ItemKeys => ({
    pk: policiesPartition(client),
    sk: `POLICY#${part(policyReference)}`,
    entity: ENTITY.supervisionPolicy,
  }),
  /**
   * The tenant's policies, or those whose reference starts with `startsWith`. Also what evaluation at processing reads
   * (every policy of the tenant: a few dozen at most, one partition, one Query page in practice).
   */
  list: (client: string, startsWith?: string): ListKey => referenceList(policiesPartition(client), 'POLICY#', startsWith),
};

/**
 * A tenant's supervision policy (`keys.supervisionPolicy`): the contract's `SupervisionPolicy` plus its running apply
 * job's run (`apply_run`, the run's `started_at`) and lease. The lease exists exactly while a run is Running and is
 * renewed by each page the job writes; a Running apply whose lease ran out died without finishing, and is shown (and
 * treated) as Failed rather than as running for ever. A policy's PUT never writes these nor `last_apply`.
 */
export const supervisionPolicyItemSchema = /* @__PURE__ */ onFirstUse(() => SupervisionPolicy.extend({
  apply_run: z.string().optional(),
  apply_lease_until: z.string().optional(),
}));
export type SupervisionPolicyItem = z.infer<ReturnType<typeof supervisionPolicyItemSchema>>;

export function readSupervisionPolicy(item: TableItem): SupervisionPolicyItem {
  return readItem('SupervisionPolicy', supervisionPolicyItemSchema(), item);
}

/** The policy's item: its attributes under the policy's keys. */
export function supervisionPolicyToItem(client: string, policy: SupervisionPolicyItem): TableItem {
  return { ...supervisionPolicyKeys.item(client, policy.policy_reference), ...policy };
}

export const APPLY_STOPPED_MESSAGE = 'The apply job stopped without finishing; apply the policy again';

/** The policy as the API answers it: without its lease; an apply whose lease ran out is Failed, as it is. */
export function toSupervisionPolicy(stored: SupervisionPolicyItem, now: Date): SupervisionPolicy {
  const { apply_lease_until: lease, apply_run: _run, ...policy } = stored;
  const run = policy.last_apply;
  if (run?.state === 'Running' && lease !== undefined && lease < now.toISOString()) {
    return { ...policy, last_apply: { ...run, state: 'Failed', message: APPLY_STOPPED_MESSAGE } };
  }
  return policy;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const supervisionPolicyModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.supervisionPolicy,
  title: 'Supervision policy (lexicon, ignore, sampling) with its latest apply run',
  module: 'supervision-policy.ts',
  indexes: {},
  items: [{ example: () => supervisionPolicyKeys.item(EXAMPLE_CLIENT, '<policy_reference>') }],
  accessPatterns: [
    {
      name: 'Get one',
      serves: '`supervision/policies/{policy_reference}` (and its preview and apply), the apply job',
      builders: ['keys.supervisionPolicy.item'],
      example: () => supervisionPolicyKeys.item(EXAMPLE_CLIENT, '<policy_reference>'),
    },
    {
      name: "List the tenant's (`starts_with`: a prefix of the sort key)",
      serves: '`GET supervision/policies`; evaluation at processing and the `supervision-daily` job (all of them)',
      builders: ['keys.supervisionPolicy.list'],
      example: () => supervisionPolicyKeys.list(EXAMPLE_CLIENT, '<prefix>'),
    },
  ],
}));
