import { useSession } from '../../../lib/session/session-context.tsx';

/** Why a control is off, in the words a person reads beside it. */
const REFUSAL: Record<string, string> = {
  'payloads:ConfirmReceipt': 'Your role does not allow confirming receipt of recordings.',
  'payloads:Download': 'Your role does not allow downloading recordings.',
  'payloads:Play': 'Your role does not allow playing or viewing recordings.',
};

/**
 * Whether the signed-in user's profile lists the action (the profile's `actions` are the actions some role allows;
 * groups and payload types still narrow each recording, and each row then shows its own refusal). The one place the
 * recordings screens ask this, so a portal-wide helper can replace it.
 */
export function useAllowedAction(action: string): { allowed: boolean; reason: string | undefined } {
  const { state } = useSession();
  const allowed = state.user?.actions.includes(action) ?? false;
  return { allowed, reason: allowed ? undefined : (REFUSAL[action] ?? 'Your role does not allow this.') };
}
