import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import type { Session } from '../session/session.ts';
import { termsStatusOptions } from './terms-api.ts';

/**
 * The terms guard (spec point 2): a tenant user must have accepted the current terms before the dashboard opens.
 * Staff in support mode are bound by the provider's own agreement, not the tenant's terms (docs/decisions.md).
 */
export async function requireTerms({ context }: { context: { session: Session; queryClient: QueryClient } }): Promise<void> {
  if (context.session.isSupportMode) return;
  const status = await context.queryClient.ensureQueryData(termsStatusOptions(context.session));
  if (!status.accepted) throw redirect({ to: '/terms' });
}
