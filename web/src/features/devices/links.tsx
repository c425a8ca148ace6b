import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * Typed router links styled as Mantine anchors. `renderRoot` keeps the router's own types (params checked against the
 * route), which `component={Link}` loses.
 */
export function DeviceLink({ deviceReference, children }: { deviceReference: string; children: ReactNode }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference }} />}>
      {children}
    </Anchor>
  );
}

export function DeviceUserLink({ deviceUserReference, children }: { deviceUserReference: string; children: ReactNode }) {
  return (
    <Anchor
      renderRoot={(props) => (
        <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference }} />
      )}
    >
      {children}
    </Anchor>
  );
}
