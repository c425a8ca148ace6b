import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * One user's acceptance of one version of the terms of use (`valid_from`), in the tenant the user acts in. Its own
 * partition, not the portal users': lists of portal users must not read acceptances. The acting user is a tenant
 * user (`USER#<sub>`) or, in support mode, a staff member (`STAFF#<sub>`): staff subjects come from another identity
 * pool, so the prefix keeps them from ever meeting a tenant user's. The user's acceptances of every version share
 * the prefix `<USER|STAFF>#<sub>#TERMS#`.
 */
export const termsAcceptanceKeys = {
  item: (client: string, user: { reference: string; staff: boolean }, validFrom: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}TERMS_ACCEPTANCES`,
    sk: `${user.staff ? 'STAFF' : 'USER'}#${part(user.reference)}#TERMS#${part(validFrom)}`,
    entity: ENTITY.termsAcceptance,
  }),
};

/**
 * One user's acceptance of one version of the terms of use (`keys.termsAcceptance`), in the tenant the user acts
 * in: who (a tenant user, or a staff member in support mode), which terms (`valid_from`) and when.
 */
export const termsAcceptanceItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  user_reference: z.string(),
  is_staff: z.boolean(),
  email: z.string().optional(),
  support_reference: z.string().optional(),
  valid_from: z.string(),
  accepted_at: z.string(),
}));
export type TermsAcceptanceItem = z.infer<ReturnType<typeof termsAcceptanceItemSchema>>;

export function readTermsAcceptance(item: TableItem): TermsAcceptanceItem {
  return readItem('TermsAcceptance', termsAcceptanceItemSchema(), item);
}

/** The acceptance's item, keyed by who accepted and which terms. */
export function termsAcceptanceToItem(acceptance: TermsAcceptanceItem): TableItem {
  const user = { reference: acceptance.user_reference, staff: acceptance.is_staff };
  return { ...termsAcceptanceKeys.item(acceptance.client, user, acceptance.valid_from), ...acceptance };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const termsAcceptanceModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.termsAcceptance,
  title: 'Terms-of-use acceptance',
  module: 'terms-acceptance.ts',
  indexes: {},
  items: [
    { when: 'a tenant user', example: () => termsAcceptanceKeys.item(EXAMPLE_CLIENT, { reference: '<sub>', staff: false }, '<valid_from>') },
    { when: 'staff in support mode', example: () => termsAcceptanceKeys.item(EXAMPLE_CLIENT, { reference: '<sub>', staff: true }, '<valid_from>') },
  ],
  accessPatterns: [
    {
      name: 'Has the acting user accepted the current terms? / accept them',
      serves: '`GET terms`, `PUT terms` (consistent GetItem; conditional put `item-not-exists` in the audit transaction)',
      builders: ['keys.termsAcceptance.item'],
      example: () => termsAcceptanceKeys.item(EXAMPLE_CLIENT, { reference: '<sub>', staff: false }, '<valid_from>'),
    },
  ],
}));
