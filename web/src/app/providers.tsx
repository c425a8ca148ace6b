import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SessionProvider } from '../lib/session/session-context.tsx';
import type { Session } from '../lib/session/session.ts';
import { useForcedColorScheme } from '../lib/forced-color-scheme.ts';
import { COLOR_SCHEME_STORAGE_KEY, cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/** Everything the pages need around them: theme and colour mode, notifications, the query cache and the session. */
export function AppProviders({ queryClient, session, children }: { queryClient: QueryClient; session: Session; children: ReactNode }) {
  const forcedColorScheme = useForcedColorScheme();
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      forceColorScheme={forcedColorScheme}
    >
      <Notifications position="top-right" limit={5} />
      <QueryClientProvider client={queryClient}>
        <SessionProvider session={session}>{children}</SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
