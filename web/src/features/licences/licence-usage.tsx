import { Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { LicenceUsage } from '#shared/contract/entities/licences.ts';
import { formatNumber } from '../../lib/format.ts';
import { inServiceOrder, serviceLabel, usageOf } from './licence-labels.ts';

/** One bar per service: use against the limit, in words as well as the bar's length and colour. */
export function LicenceUsageBars({ data, columns = 2 }: { data: readonly LicenceUsage[]; columns?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: columns }} spacing="md" verticalSpacing="sm">
      {inServiceOrder(data).map((entry) => {
        const { percent, colour, over } = usageOf(entry);
        const label = `${serviceLabel(entry.service)}: ${formatNumber(entry.used)} of ${formatNumber(entry.limit)} used`;
        return (
          <Stack key={entry.service} gap={4}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600}>
                {serviceLabel(entry.service)}
              </Text>
              <Text size="sm" c={over ? 'red' : undefined}>
                {formatNumber(entry.used)} of {formatNumber(entry.limit)}
                {over ? ' (over the limit)' : entry.limit === 0 ? ' (no licences)' : ''}
              </Text>
            </Group>
            <Progress value={percent} color={colour} size="lg" aria-label={label} />
          </Stack>
        );
      })}
    </SimpleGrid>
  );
}
