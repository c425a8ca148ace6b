import { Alert, Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { HeldBy } from '#shared/contract/entities/legal-hold-ref.ts';

/**
 * Where a legal hold shows on the record it holds (a device user, a device, a recording): the response's `held_by`
 * names the active holds, and each links to that hold on the legal holds screen. Nothing is shown when nothing holds
 * the record.
 */

const WHO: Record<HeldBy['target_type'], string> = { DeviceUser: 'device user', PortalUser: 'portal user' };

/** The legal holds screen, showing the one hold. */
function HoldLink({ hold, children, label }: { hold: HeldBy; children: ReactNode; label: string }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/account/legal-holds" search={{ type: hold.target_type, target: hold.target }} />} aria-label={label} size="sm">
      {children}
    </Anchor>
  );
}

/** A small badge for a list row: "Held", linking to the hold. */
export function LegalHoldBadge({ heldBy }: { heldBy: readonly HeldBy[] | undefined }) {
  if (heldBy === undefined || heldBy.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" component="span" data-testid="legal-hold-badge">
      {heldBy.map((hold) => (
        <HoldLink key={`${hold.target_type}:${hold.target}`} hold={hold} label={`Under a legal hold on ${WHO[hold.target_type]} ${hold.target}: open the hold`}>
          <Badge color="red" variant="light" size="sm" style={{ cursor: 'pointer' }}>
            Held
          </Badge>
        </HoldLink>
      ))}
    </Group>
  );
}

/** The notice on a detail page: what it is held by, each hold linked. */
export function LegalHoldNotice({ heldBy, what }: { heldBy: readonly HeldBy[] | undefined; what: string }) {
  if (heldBy === undefined || heldBy.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={`This ${what} is under a legal hold`} mb="md" data-testid="legal-hold-notice">
      <Text size="sm">
        It is kept whatever the retention policy says until the hold is released.{' '}
        {heldBy.map((hold, index) => (
          <span key={`${hold.target_type}:${hold.target}`}>
            {index > 0 ? ', ' : 'Held by '}
            <HoldLink hold={hold} label={`The legal hold on ${WHO[hold.target_type]} ${hold.target}`}>
              {`the hold on ${WHO[hold.target_type]} ${hold.target}`}
            </HoldLink>
          </span>
        ))}
        .
      </Text>
    </Alert>
  );
}
