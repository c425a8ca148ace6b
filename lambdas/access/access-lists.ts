import type { Principal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';

/** What the access services use: the table, the clock (updated_at) and the cursor codec (lists, core/store/paging.ts). */
export type AccessDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** Who changes a role or a client app, and from where (the caller's source IP): the change's sec alert names both. */
export interface Changer {
  principal: Principal | undefined;
  ip: string | undefined;
}
