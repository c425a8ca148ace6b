import { CURRENT_TERMS, type Terms } from '#shared/constants/terms.ts';
import type { TermsStatus } from '#shared/contract/entities/common.ts';
import type { AccessContext } from '#core/auth/access/access-context.ts';
import { writeActivityRecordWith } from '../audit/public.ts';
import type { UserActivityEntry } from '#core/http/activity.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { ConflictError, InternalError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readTermsAcceptance, termsAcceptanceToItem } from '#core/store/entities/terms-acceptance.ts';
import { keys } from '#core/store/keys.ts';

export const STALE_TERMS_MESSAGE = 'valid_from: These terms are no longer current; reload and accept the current terms';

/**
 * Who accepts: the user acting in the tenant. A tenant user is their token's subject (the portal user reference). In
 * support mode (the access context carries a `supportReference`) the acting user is the staff member, never the
 * tenant user who approved the request: their acceptance is kept in the tenant they act in, under `STAFF#<sub>`, so
 * it counts only for support sessions in that tenant and cannot pass for a tenant user's.
 */
export interface TermsActor {
  reference: string;
  staff: boolean;
  email?: string;
  supportReference?: string;
  roles: readonly string[];
  ip?: string;
}

export function actingUser(principal: UserPrincipal, access: AccessContext): TermsActor {
  return {
    reference: principal.subject,
    staff: access.supportReference !== undefined,
    ...(principal.email === undefined ? {} : { email: principal.email }),
    ...(access.supportReference === undefined ? {} : { supportReference: access.supportReference }),
    roles: [...access.roleReferences],
    ...(access.ip === undefined ? {} : { ip: access.ip }),
  };
}

/** The signed-in portal user calling (client apps never reach the terms routes); its absence there is our bug (500). */
function actorOf(caller: TenantCaller): TermsActor {
  if (caller.principal?.kind !== 'user') throw new InternalError('terms without a user principal');
  if (caller.access === undefined) throw new InternalError('No access context on an authenticated route');
  return actingUser(caller.principal, caller.access);
}

function statusOf(terms: Terms, item: TableItem | undefined): TermsStatus {
  const acceptedAt = item === undefined ? undefined : readTermsAcceptance(item).accepted_at;
  return {
    valid_from: terms.valid_from,
    termsAndConditions: terms.termsAndConditions,
    accepted: acceptedAt !== undefined,
    ...(acceptedAt === undefined ? {} : { accepted_at: acceptedAt }),
  };
}

const keyOf = (client: string, actor: TermsActor, terms: Terms) =>
  keys.termsAcceptance.item(client, { reference: actor.reference, staff: actor.staff }, terms.valid_from);

/** The current terms and whether the caller accepted THESE terms in its tenant (an older version's acceptance does not count). */
export async function termsStatus(caller: TenantCaller, terms: Terms = CURRENT_TERMS): Promise<TermsStatus> {
  // Consistent: the portal reads this right after accepting, and its guard must not bounce the user back.
  return statusOf(terms, await caller.deps.table.get(keyOf(caller.tenant, actorOf(caller), terms), { consistent: true }));
}

/** The instant an ISO text names; a time without zone is UTC, as the contract's DateTimeIso reads it. */
function instantOf(iso: string): number {
  const normalised = iso.replace(' ', 'T');
  return Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(normalised) ? normalised : `${normalised}Z`);
}

/**
 * Records that the caller (`actingUser`) accepted the current terms in its tenant. `validFrom` must name the current terms (the same
 * instant, in any ISO spelling the contract accepts), else 409: a page left open across a change of terms must not
 * accept terms its user never saw. Idempotent: accepting again keeps the first `accepted_at` and writes nothing.
 *
 * The acceptance item and its user-activity record are one transaction (`writeActivityRecordWith`): the acceptance
 * exists if and only if the audit chain shows it. That record says which terms (`parameters.valid_from`); the HTTP
 * stack's own record of the call is written besides, as for every call.
 */
export async function acceptTerms(caller: TenantCaller, validFrom: string, terms: Terms = CURRENT_TERMS): Promise<TermsStatus> {
  const { deps, tenant: client } = caller;
  const actor = actorOf(caller);
  if (instantOf(validFrom) !== instantOf(terms.valid_from)) throw new ConflictError(STALE_TERMS_MESSAGE);
  const key = keyOf(client, actor, terms);
  const now = deps.clock.now().toISOString();
  const item = termsAcceptanceToItem({
    client,
    user_reference: actor.reference,
    is_staff: actor.staff,
    ...(actor.email === undefined ? {} : { email: actor.email }),
    ...(actor.supportReference === undefined ? {} : { support_reference: actor.supportReference }),
    valid_from: terms.valid_from,
    accepted_at: now,
  });
  const entry: UserActivityEntry = {
    user_id: actor.reference,
    ...(actor.ip === undefined ? {} : { user_ip: actor.ip }),
    roles: [...actor.roles],
    action: caller.action,
    is_allowed: true,
    activity_time: now,
    parameters: { valid_from: terms.valid_from },
    ...(actor.supportReference === undefined ? {} : { support_reference: actor.supportReference }),
    is_client_app: false,
  };
  await writeActivityRecordWith(
    deps,
    { trail: 'user', client, entry, requestId: caller.requestId },
    // Re-read before every attempt: a concurrent accept of the same user may have won, and then nothing is left to do.
    async () =>
      (await deps.table.get(key, { consistent: true })) === undefined
        ? [{ kind: 'put', item, condition: { kind: 'item-not-exists' } }]
        : undefined,
  );
  return termsStatus(caller, terms);
}
