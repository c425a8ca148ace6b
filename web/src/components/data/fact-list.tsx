import { SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled fact of a detail page; an undefined or empty value shows as a dash. */
export type Fact = [label: string, value: ReactNode];

/** A detail page's facts as a description list, in up to three columns. */
export function FactList({ facts }: { facts: readonly Fact[] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value === undefined || value === '' ? '—' : value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
