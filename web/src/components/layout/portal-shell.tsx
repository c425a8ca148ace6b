import { Anchor, AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation } from '@tanstack/react-router';
import { createContext, useContext, type ReactNode } from 'react';
import { displayNameOf } from '../../lib/session/id-token.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { ColourModeControl } from './colour-mode-control.tsx';
import type { NavSection } from './nav.ts';

/** True below a PortalShell's main landmark: a page rendered there must not open a second `main` or shell. */
export const InsideShell = createContext(false);

/** Is this component rendered inside a PortalShell? */
export function useInsideShell(): boolean {
  return useContext(InsideShell);
}

/**
 * The frame of the default and internal layouts: header (brand, support-mode notice, colour mode, sign out),
 * a navigation bar that collapses behind a burger on small screens, and the main landmark.
 */
export function PortalShell({
  nav,
  area,
  children,
  headerStatus,
}: {
  nav: readonly NavSection[];
  area: string;
  children: ReactNode;
  /** Shown in the header before the colour mode control (the dashboard's alert count). */
  headerStatus?: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure();
  const { session, state } = useSession();
  const { pathname } = useLocation();
  const signedInAs = displayNameOf(state.idToken);
  const allowed = new Set(state.user?.actions ?? []);
  // A screen the user's roles cannot read is not offered (an item names the action its screen's read needs).
  const visibleNav = nav
    .map((section) => ({ ...section, items: section.items.filter((item) => item.action === undefined || allowed.has(item.action)) }))
    .filter((section) => section.items.length > 0);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={Link} to="/" fw={700} size="lg" underline="never" aria-label="Verity home">
              Verity
            </Anchor>
            <Text size="sm" c="dimmed" visibleFrom="xs">
              {area}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {state.supportReference !== undefined && (
              <Group gap={6} wrap="nowrap">
                <Badge color="orange" variant="filled" aria-label={`Support mode in ${state.client ?? ''}`}>
                  Support mode · {state.client}
                </Badge>
                <Button size="xs" variant="outline" color="orange" onClick={() => void session.endSupportMode()}>
                  End support mode
                </Button>
              </Group>
            )}
            {headerStatus}
            <ColourModeControl />
            {signedInAs !== undefined && (
              <Text size="sm" c="dimmed" visibleFrom="md" data-testid="signed-in-as">
                {signedInAs}
              </Text>
            )}
            <Button size="xs" variant="subtle" onClick={() => session.logout()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea type="auto">
          <nav aria-label="Main navigation">
            {visibleNav.map((section) => (
              <div key={section.label}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                  {section.label}
                </Text>
                {section.items.map((item) => (
                  <NavLink
                    key={item.to}
                    component={Link}
                    to={item.to}
                    // Exact: "Devices" must not light up on /dashboard/devices/logs as well.
                    activeOptions={{ exact: true }}
                    label={item.label}
                    active={pathname === item.to}
                    aria-current={pathname === item.to ? 'page' : undefined}
                    onClick={close}
                  />
                ))}
              </div>
            ))}
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <InsideShell.Provider value>{children}</InsideShell.Provider>
      </AppShell.Main>
    </AppShell>
  );
}
