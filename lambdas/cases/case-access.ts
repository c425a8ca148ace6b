import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import type { Caller, TenantCaller } from '#core/http/caller.ts';
import { readCase, SUPPORT_SEAT, type CaseItem } from '#core/store/entities/case.ts';
import { keys } from '#core/store/keys.ts';
import type { TableItem } from '#core/ports/table-store.ts';

/**
 * Who may see a case (docs/cases.md, "The team rule"): the role's permission for the act is checked by the router;
 * this is the second condition, a place on the case. A tenant's portal user sits on the cases whose team names them;
 * provider staff in support mode sit on the cases whose team allows support (`support_may_view`); a client app, which
 * is no person, sits on none. Whoever has no seat is answered as if the case did not exist.
 */

/** The seat a caller looks through: a portal user's reference, SUPPORT_SEAT in support mode, or none. */
export function seatOf(caller: Pick<Caller, 'principal'>): string | undefined {
  const principal = caller.principal;
  if (principal?.kind !== 'user') return undefined;
  if (principal.client === ADMIN_CLIENT) return principal.supportReference === undefined ? undefined : SUPPORT_SEAT;
  return principal.subject;
}

/** Whether a case lets this seat see it. */
export function seatSees(seat: string | undefined, stored: Pick<CaseItem, 'team' | 'support_may_view'>): boolean {
  if (seat === undefined) return false;
  return seat === SUPPORT_SEAT ? stored.support_may_view : stored.team.includes(seat);
}

/** The same 404 for a case that does not exist, is another tenant's, or whose team does not name the caller. */
export const caseNotFound = (caseRef: string) => new NotFoundError(`Case ${caseRef} not found`);

/**
 * A case the retention job deleted (or is destroying) is absent for every read, list and count, and so are its
 * productions (docs/cases.md "Records and retention"); removing the mark restores both.
 */
export const disposedByRetention = (item: TableItem): boolean => item.retention_state !== undefined;

/** The stored case, or undefined (no visibility check: the services' own reads before a write). Consistent. */
export async function readStoredCase(deps: Pick<Dependencies, 'table'>, tenant: string, caseRef: string): Promise<CaseItem | undefined> {
  const item = await deps.table.get(keys.case.key(tenant, caseRef), { consistent: true });
  return item === undefined || disposedByRetention(item) ? undefined : readCase(item);
}

/**
 * The case if the caller may see it; else 404, whatever the reason. What every case endpoint, and the productions of
 * a case, read a case through.
 */
export async function readCaseForCaller(caller: TenantCaller, caseRef: string): Promise<CaseItem> {
  const stored = await readStoredCase(caller.deps, caller.tenant, caseRef);
  if (stored === undefined || !seatSees(seatOf(caller), stored)) throw caseNotFound(caseRef);
  return stored;
}

/** The portal user opening a case, who joins its team: a case team is people, so a client app or staff may not. */
export function creatorSeat(caller: TenantCaller): string {
  const seat = seatOf(caller);
  if (seat === undefined || seat === SUPPORT_SEAT) throw new ForbiddenError('Only a portal user of the tenant may open a case: its team is people');
  return seat;
}
