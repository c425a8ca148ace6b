import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled part of a recording's page. */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
