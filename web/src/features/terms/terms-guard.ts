import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { CURRENT_TERMS } from '#shared/constants/terms.ts';
import type { KeyValueStorage } from '../../lib/session/auth-storage.ts';
import type { Session } from '../../lib/session/session.ts';
import { termsStatusOptions } from './api/get-terms-status.ts';

/** Remembers, per browser, which user accepted which terms, so the guard does not ask the server on every load. */
export const TERMS_ACCEPTED_KEY = 'verity.terms-accepted';

function acceptanceMark(session: Session): string | undefined {
  const { client, user } = session.getState();
  if (client === undefined || user === undefined) return undefined;
  return `${client}/${user.reference}/${CURRENT_TERMS.valid_from}`;
}

/** Records that the signed-in user accepted the current terms (after the server said so). */
export function rememberTermsAccepted(session: Session, storage: KeyValueStorage = window.localStorage): void {
  const mark = acceptanceMark(session);
  try {
    if (mark !== undefined) storage.setItem(TERMS_ACCEPTED_KEY, mark);
  } catch {
    // Storage blocked: the guard simply asks the server next time.
  }
}

/**
 * The terms guard (spec point 2): a tenant user must have accepted the current terms before the dashboard opens.
 * The server's record decides; a mark in local storage for this user and these terms saves the round trip on later
 * loads (it cannot outlive the terms: new terms have a new `valid_from`). Staff in support mode are bound by the
 * provider's own agreement, not the tenant's terms (docs/decisions.md).
 */
export async function requireTerms(
  { context }: { context: { session: Session; queryClient: QueryClient } },
  storage: KeyValueStorage = window.localStorage,
): Promise<void> {
  if (context.session.isSupportMode) return;
  const mark = acceptanceMark(context.session);
  if (mark !== undefined && storage.getItem(TERMS_ACCEPTED_KEY) === mark) return;
  const status = await context.queryClient.ensureQueryData(termsStatusOptions(context.session));
  if (!status.accepted) throw redirect({ to: '/terms' });
  rememberTermsAccepted(context.session, storage);
}
