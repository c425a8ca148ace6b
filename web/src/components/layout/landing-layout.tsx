import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useForceColorScheme } from '../../lib/forced-color-scheme.ts';
import { useSession } from '../../lib/session/session-context.tsx';

/** The public pages' frame: brand, a way in, and the legal links. Forced light, like the printed policies it carries. */
export function LandingLayout({ children }: { children: ReactNode }) {
  useForceColorScheme('light');
  const { session } = useSession();
  const home = session.isAdmin ? '/internal' : '/dashboard';
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="lg">
          <Group justify="space-between">
            <Anchor component={Link} to="/" fw={700} size="lg" underline="never" aria-label="Verity home">
              Verity
            </Anchor>
            {session.isLoggedIn ? (
              <Button component={Link} to={home} size="sm">
                Open the portal
              </Button>
            ) : (
              <Button component={Link} to="/sign-in" size="sm">
                Sign in
              </Button>
            )}
          </Group>
        </Container>
      </Box>
      <Container size="lg" component="main" id="main-content" tabIndex={-1} py="xl" style={{ flex: 1, width: '100%' }}>
        {children}
      </Container>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="lg">
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              Verity · compliance recording for managed mobile devices
            </Text>
            <Group gap="md" component="nav" aria-label="Legal">
              <Anchor component={Link} to="/cookies" size="sm">
                Cookies
              </Anchor>
              <Anchor component={Link} to="/privacy" size="sm">
                Privacy
              </Anchor>
              <Anchor component={Link} to="/terms" size="sm">
                Terms
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
