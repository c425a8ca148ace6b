import { useSession } from './session/session-context.tsx';
import { permissionOf, type Permission } from './permission.ts';

/**
 * May the signed-in user perform `action` (`<area>:<Verb>`, or several: all are needed)? Reads the profile's
 * `actions`, so a control whose request the server would refuse can be hidden or disabled beforehand.
 *
 * @example
 * const canDeactivate = useCan('devices:Deactivate');
 * if (!canDeactivate.allowed) return <Text>{canDeactivate.reason}</Text>;
 *
 * Prefer `PermittedButton` (components/access/permitted-button.tsx) for a button: it disables itself with the reason
 * as a tooltip and tags itself with `data-requires-action` for the browser tests.
 */
export function useCan(action: string | readonly string[]): Permission {
  const { state } = useSession();
  return permissionOf(state.user?.actions, action, { supportMode: state.supportReference !== undefined });
}
