import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys } from '../key-parts.ts';
import { readItem } from './read-item.ts';

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
export const TermsAcceptanceItem = z.object({
  client: z.string(),
  user_reference: z.string(),
  is_staff: z.boolean(),
  email: z.string().optional(),
  support_reference: z.string().optional(),
  valid_from: z.string(),
  accepted_at: z.string(),
});
export type TermsAcceptanceItem = z.infer<typeof TermsAcceptanceItem>;

export function readTermsAcceptance(item: TableItem): TermsAcceptanceItem {
  return readItem('TermsAcceptance', TermsAcceptanceItem, item);
}

/** The acceptance's item, keyed by who accepted and which terms. */
export function termsAcceptanceToItem(acceptance: TermsAcceptanceItem): TableItem {
  const user = { reference: acceptance.user_reference, staff: acceptance.is_staff };
  return { ...termsAcceptanceKeys.item(acceptance.client, user, acceptance.valid_from), ...acceptance };
}
