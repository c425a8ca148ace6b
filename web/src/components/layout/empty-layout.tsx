import { Center, Container } from '@mantine/core';
import type { ReactNode } from 'react';

/** Nothing but the page, centred: the sign-in return page. */
export function EmptyLayout({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" component="main" id="main-content">
      <Container size="xs" w="100%">
        {children}
      </Container>
    </Center>
  );
}
