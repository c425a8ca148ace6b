import type { GroupScope } from '../auth/access/group-scope.ts';

/**
 * TEST DOUBLE: the group scope of a caller no condition narrows (the admin role), for tests that call a service as
 * its route would, without resolving roles: every group in scope, every item visible.
 */
export function everyGroupScope(action: string): GroupScope {
  return {
    action,
    unrestricted: true,
    allows: async () => true,
    filter: async (items) => [...items],
    visible: async (item, notFound) => {
      if (item === undefined) throw notFound();
      return item;
    },
    require: async () => undefined,
    visibleOf: async (groups) => new Set(groups),
  };
}
