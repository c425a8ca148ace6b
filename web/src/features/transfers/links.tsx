import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A link to one transfer's detail (Mantine's look, the router's navigation). */
export function TransferLink({ transferId, children, label }: { transferId: string; children: ReactNode; label?: string }) {
  return (
    <Anchor
      size="sm"
      aria-label={label}
      renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers/$transferId" params={{ transferId }} />}
    >
      {children}
    </Anchor>
  );
}

/** A link to a configuration, shown open on the configuration screen. */
export function ConfigLink({ reference, children }: { reference: string; children: ReactNode }) {
  return (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers/config" search={{ config: reference }} />}>
      {children}
    </Anchor>
  );
}
