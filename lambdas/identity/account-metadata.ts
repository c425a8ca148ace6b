import type { AccountMetadata } from '#shared/contract/entities/account.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { IdentityDirectory } from '#core/ports/identity-directory.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { findKnownClient } from './sign-in.ts';

/** The staff portal's name on its sign-in page. */
export const STAFF_DISPLAY_NAME = 'Verity staff';

/**
 * What the sign-in page may know before anyone is signed in: the client, its display name and the public app
 * client it signs in with. Nothing else of the account item leaves (no defaults, CIDR ranges or settings).
 */
export async function accountMetadata(deps: { table: TableStore; identity: IdentityDirectory }, client: string): Promise<AccountMetadata> {
  const account = await findKnownClient(deps.table, client);
  const app = deps.identity.appClient(client);
  const displayName = client === ADMIN_CLIENT ? STAFF_DISPLAY_NAME : account?.display_name;
  return {
    client,
    ...(displayName === undefined ? {} : { display_name: displayName }),
    client_id: app.clientId,
    ...(app.userPoolId === undefined ? {} : { user_pool_id: app.userPoolId }),
    is_admin: client === ADMIN_CLIENT,
  };
}
