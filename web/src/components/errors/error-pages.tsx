import { Anchor, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { isNotFound, Link, useLocation, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { statusOf } from '../../lib/api-error.ts';
import { reloadOnChunkError } from '../../lib/chunk-reload.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useSessionIfAny } from '../../lib/session/session-context.tsx';
import { DASHBOARD_NAV, INTERNAL_NAV, type NavSection } from '../layout/nav.ts';
import { PortalShell, useInsideShell } from '../layout/portal-shell.tsx';

/** The error page's heading for a status (spec point 2): 404 is "Page Not Found", anything else a server error. */
export function errorTitle(status: number): string {
  return status === 404 ? 'Page Not Found' : 'Internal Server Error';
}

/**
 * Unknown route (spec point 8): "Page not found: {path}", status 404. Under /dashboard or /internal it keeps that
 * area's layout and navigation, so the user can go on from where they were rather than starting over.
 */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const insideShell = useInsideShell();
  const session = useSessionIfAny();
  useDocumentTitle('Page not found');
  const content = <NotFoundContent pathname={pathname} />;
  if (insideShell) return content;
  const area = session?.isLoggedIn === true ? shellAreaOf(pathname, session.isAdmin) : undefined;
  if (area !== undefined) {
    return (
      <PortalShell nav={area.nav} area={area.label}>
        {content}
      </PortalShell>
    );
  }
  return (
    <Container size="sm" py="xl" component="main" id="main-content">
      {content}
    </Container>
  );
}

/** The layout an unknown path belongs to: the signed-in user's own area when the path lies in it. */
function shellAreaOf(pathname: string, isStaff: boolean): { nav: readonly NavSection[]; label: string } | undefined {
  if (!isStaff && (pathname === '/dashboard' || pathname.startsWith('/dashboard/'))) return { nav: DASHBOARD_NAV, label: 'Portal' };
  if (isStaff && (pathname === '/internal' || pathname.startsWith('/internal/'))) return { nav: INTERNAL_NAV, label: 'Staff console' };
  return undefined;
}

function NotFoundContent({ pathname }: { pathname: string }) {
  return (
    <Stack>
      <Text c="dimmed" fw={700}>
        404
      </Text>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        Page not found: {pathname}
      </Title>
      <Anchor component={Link} to="/">
        Go to the home page
      </Anchor>
    </Stack>
  );
}

/** The generic error page: status title plus the error's own message. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const status = isNotFound(error) ? 404 : (statusOf(error) ?? 500);
  const title = errorTitle(status);
  useDocumentTitle(title);
  // A stale chunk after a deployment: reload once (guarded) instead of showing an error.
  useEffect(() => {
    reloadOnChunkError(error);
  }, [error]);
  const message = error instanceof Error ? error.message : '';
  return (
    <Container size="sm" py="xl" component="main" id="main-content" role="alert">
      <Stack>
        <Text c="dimmed" fw={700}>
          {status}
        </Text>
        <Title order={1}>{title}</Title>
        {/* The message is for people (an API error's lines are put in words as the client reads them), not code. */}
        {message && <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message}</Text>}
        <Group>
          <Button onClick={reset}>Try again</Button>
          <Anchor component={Link} to="/">
            Go to the home page
          </Anchor>
        </Group>
      </Stack>
    </Container>
  );
}
