import type { Role } from '#shared/contract/entities/roles.ts';
import { ACTION_NAMES } from '#shared/contract/actions.ts';
import { supportModeRefusalOf } from '#shared/contract/support-mode.ts';
import { allowedActions, applicableRoles, evaluate, payloadTypesOf } from '#shared/permissions/evaluate.ts';
import type { AccessContext } from './access-context.ts';

export interface AccessContextInput {
  roles: readonly Role[];
  ip: string | undefined;
  userGroup?: string;
  isClientApp: boolean;
  supportReference?: string;
}

/** An AccessContext over resolved roles: every question is answered by the pure evaluation in `shared/permissions`. */
export function createAccessContext(input: AccessContextInput): AccessContext {
  const { roles, ip } = input;
  // In support mode the acts refused whatever the role allows are neither allowed nor offered (shared/contract/support-mode.ts).
  const refused = (action: string) => input.supportReference !== undefined && supportModeRefusalOf(action) !== undefined;
  let actions: string[] | undefined;
  return {
    roles,
    roleReferences: roles.map((role) => role.role_reference),
    ...(input.userGroup === undefined ? {} : { userGroup: input.userGroup }),
    payloadTypes: payloadTypesOf(applicableRoles(roles, ip)),
    isClientApp: input.isClientApp,
    ...(input.supportReference === undefined ? {} : { supportReference: input.supportReference }),
    ...(ip === undefined ? {} : { ip }),
    can: (action, group) => !refused(action) && evaluate(roles, { action, ip, ...(group ? { group } : {}) }).allowed,
    allowedActions: () => {
      actions ??= allowedActions(roles, ACTION_NAMES, ip).filter((action) => !refused(action));
      return [...actions];
    },
  };
}
