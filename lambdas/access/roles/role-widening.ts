import type { RoleRequest } from '#shared/contract/entities/roles.ts';
import { grantsBeyond, type CoveredRole, type Excess } from '#shared/permissions/coverage.ts';

/**
 * Does a change make a role grant more than it did? Its sec alert says so (High) and in what way
 * (docs/decisions.md, "Security alerts"). "More" is the coverage check the grant guard uses
 * (shared/permissions/coverage.ts `grantsBeyond`), with the role as it was as the only held role: more actions or
 * groups, payload types, alert permissions, wider CIDR ranges. A dropped deny is named besides, since a deny binds the
 * role's holders even where the role allows nothing itself (coverage weighs only what a role allows).
 */

type Permission = CoveredRole['permissions'][number];

const denies = (role: CoveredRole | undefined): Permission[] => (role?.permissions ?? []).filter((permission) => permission.is_denied === true);

/** A permission compared as a whole: the same deny written the same way is the same deny. */
const sameAs = (a: Permission) => (b: Permission) => JSON.stringify(a) === JSON.stringify(b);

/** coverage.ts words its excess for an editor ("your roles"); here the comparison is with the role as it was. */
function reworded(excess: Excess): string {
  const listed = /^It allows (.+) where your roles do not/.exec(excess.message)?.[1];
  const after = /: (.+)$/.exec(excess.message)?.[1];
  switch (excess.field) {
    case 'cidr_ranges':
      return 'It applies from addresses it did not before (CIDR ranges).';
    case 'payload_types':
      return `It opens payload types: ${after ?? 'more than before'}.`;
    case 'alert_permissions':
      return `It gives alert permissions: ${after ?? 'more than before'}.`;
    case 'permissions':
      return listed === undefined ? 'Its action patterns may allow actions it did not before.' : `It allows ${listed} beyond what it allowed before.`;
  }
}

/** Sentences saying how `after` grants more than `before` (undefined: the role is new); empty when it grants no more. */
export function roleWidening(before: CoveredRole | undefined, after: RoleRequest & { role_reference: string }): string[] {
  const lines = [...new Set(grantsBeyond(before === undefined ? [] : [before], after).map(reworded))];
  for (const deny of denies(before)) {
    if (!after.permissions.some(sameAs(deny))) lines.push(`It no longer denies actions matching "${deny.actions_matching}".`);
  }
  return lines;
}

/** What deleting a role frees: its denies stop binding its holders. */
export function deletionWidening(before: CoveredRole): string[] {
  return denies(before).map((deny) => `Its deny of actions matching "${deny.actions_matching}" no longer binds its holders.`);
}
