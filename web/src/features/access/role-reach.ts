import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { Role, RoleRequest } from '#shared/contract/entities/roles.ts';
import { grantsBeyond } from '#shared/permissions/coverage.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { roleQueryOptions } from './api/get-role.ts';

/**
 * What the role editor may offer: the server refuses (403) a role that grants more than the editor's own roles, and
 * any change to a role the editor holds (lambdas/access/roles/grant-guard.ts). The editor runs the same pure check
 * (shared/permissions/coverage.ts) on the roles the signed-in user acts with, so it never offers a save or a delete
 * the server would refuse.
 */
export interface HeldRoles {
  /** The references of the roles the user acts with (the profile's `roles`). */
  references: readonly string[];
  /** Those roles as stored; undefined while loading, or when they cannot be read (the server still checks). */
  roles: readonly Role[] | undefined;
}

export interface RoleReach {
  /** Set when the stored role may not be changed or deleted by this user, saying why. */
  lockedReason?: string;
  /** What the draft grants beyond the user's roles, as `body.<field>: message` lines; empty when within them. */
  beyond: string[];
}

/** The editor's verdict on one role: the stored one (when editing) and the draft's request body (when it parses). */
export function roleReach(
  held: HeldRoles,
  role: { reference: string; creating: boolean; stored?: Role | undefined; body?: z.input<typeof RoleRequest> | undefined },
): RoleReach {
  if (!role.creating && held.references.includes(role.reference)) {
    return { lockedReason: `You hold role "${role.reference}", so you cannot change or delete it; ask someone who does not hold it.`, beyond: [] };
  }
  if (held.roles === undefined) return { beyond: [] };
  if (!role.creating && role.stored !== undefined && !role.stored.is_system) {
    const excess = grantsBeyond(held.roles, role.stored)[0];
    if (excess !== undefined) {
      return { lockedReason: `Role "${role.reference}" grants more than your own roles, so you cannot change or delete it. ${excess.message}.`, beyond: [] };
    }
  }
  if (role.body === undefined) return { beyond: [] };
  const proposed = {
    role_reference: role.reference,
    ...role.body,
    payload_types: role.body.payload_types ?? [],
    cidr_ranges: role.body.cidr_ranges ?? [],
  };
  return { beyond: grantsBeyond(held.roles, proposed).map((excess) => `body.${excess.field}: ${excess.message}`) };
}

/** The roles the signed-in user acts with, read through `admin.roles.get` (one query each, cached with the role's). */
export function useHeldRoles(): HeldRoles {
  const { session, state } = useSession();
  const references = state.user?.roles ?? NONE;
  const roles = useQueries({
    queries: references.map((reference) => ({ ...roleQueryOptions(session, reference), retry: false })),
    combine: allLoaded,
  });
  return useMemo(() => ({ references, roles: references.length === 0 ? undefined : roles }), [references, roles]);
}

const NONE: readonly string[] = [];

/** Every role, once all are loaded (a stable function, so react-query keeps the combined answer while nothing changed). */
function allLoaded(results: ReadonlyArray<{ data?: Role | undefined }>): readonly Role[] | undefined {
  return results.every((result) => result.data !== undefined) ? results.map((result) => result.data as Role) : undefined;
}
