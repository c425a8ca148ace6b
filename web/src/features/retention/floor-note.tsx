import { Text } from '@mantine/core';
import { REGULATORY_RULE_NAMES, type Floor } from '#shared/constants/regulatory-rules.ts';
import { formatNumber } from '../../lib/format.ts';

/** The regulatory floor beside a type's periods: the shortest period the tenant's strictest chosen rule allows. */
export function FloorNote({ floor }: { floor: Floor | undefined }) {
  if (floor === undefined) return null;
  return (
    <Text size="xs" c="dimmed" data-floor-days={floor.days}>
      At least {formatNumber(floor.days)} days ({REGULATORY_RULE_NAMES[floor.rule]})
    </Text>
  );
}
