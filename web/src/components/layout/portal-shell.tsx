import { Anchor, AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSession } from '../../features/session/session-context.tsx';
import { ColourModeControl } from './colour-mode-control.tsx';
import type { NavSection } from './nav.ts';

/**
 * The frame of the default and internal layouts: header (brand, support-mode notice, colour mode, sign out),
 * a navigation bar that collapses behind a burger on small screens, and the main landmark.
 */
export function PortalShell({ nav, area, children }: { nav: readonly NavSection[]; area: string; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { session, state } = useSession();
  const { pathname } = useLocation();
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
            <ColourModeControl />
            {state.user !== undefined && (
              <Text size="sm" c="dimmed" visibleFrom="md">
                {state.user.reference}
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
            {nav.map((section) => (
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
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
