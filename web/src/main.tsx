import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { getConfig } from './config.ts';
import { AUTH_STORAGE_KEY } from './lib/session/auth-storage.ts';
import { Session } from './lib/session/session.ts';
import { reloadOnChunkError } from './lib/chunk-reload.ts';
import { errorNotice } from './lib/error-notice.ts';
import { navigateTo } from './lib/external-navigation.ts';
import { setLocaleCookie } from './lib/locale-cookie.ts';
import { monitoringSettings, startMonitoring } from './lib/monitoring.ts';
import { createQueryClient } from './lib/query-client.ts';
import { pollForNewVersion } from './lib/version-poll.ts';
import { createAppRouter } from './router.tsx';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Verity: the page has no #root element');

let config;
try {
  // Fail loudly and early: every API call depends on these bases.
  config = getConfig();
} catch (error) {
  rootElement.textContent = error instanceof Error ? error.message : String(error);
  rootElement.setAttribute('role', 'alert');
  throw error;
}

// Vite raises this when a route chunk's preload fails (typically after a deployment).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnChunkError(event.payload)) event.preventDefault();
});
setLocaleCookie();

const session = new Session({
  storage: window.localStorage,
  flowStorage: window.sessionStorage,
  origin: window.location.origin,
  navigate: (to) => void router.navigate({ to }),
  // Sign-in is the one place the portal leaves for another origin, and says so.
  navigateExternal: (url) => navigateTo(url, { allowExternal: true }),
  notify: (message) => notifications.show({ message, color: 'cerulean', closeButtonProps: { 'aria-label': 'Close notification' } }),
});
// Signing out (or in) in one tab is seen by the others.
window.addEventListener('storage', (event) => {
  if (event.key === AUTH_STORAGE_KEY) session.reloadFromStorage();
});

const queryClient = createQueryClient({
  onError: (error) => {
    const notice = errorNotice(error);
    notifications.show({
      title: notice.title,
      message: notice.message,
      color: 'red',
      autoClose: 8000,
      closeButtonProps: { 'aria-label': 'Close notification' },
    });
    if (notice.signInAgain && session.isLoggedIn) session.logout();
    else if (notice.signInAgain) void router.navigate({ to: '/sign-in' });
  },
});
const router = createAppRouter({ queryClient, session });

// Monitoring starts once, after the first profile load (spec point 7).
const monitoring = monitoringSettings(config, window.location.hostname);
const stopWatchingProfile = session.subscribe(() => {
  if (session.getState().user === undefined) return;
  stopWatchingProfile();
  void startMonitoring(monitoring, __VERITY_VERSION__);
});

pollForNewVersion(__VERITY_VERSION__, () => {
  notifications.show({
    id: 'new-version',
    title: 'A new version of Verity is available',
    message: (
      <Button size="xs" mt="xs" onClick={() => window.location.reload()}>
        Reload now
      </Button>
    ),
    autoClose: false,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
});

createRoot(rootElement).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} session={session}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
