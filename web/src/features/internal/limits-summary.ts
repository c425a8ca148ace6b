import { formatNumber } from '../../lib/format.ts';

/**
 * A client's licence limits in a few words: the same limit for every service ("100,000 each"), or the range. The API
 * answers the limits in force (staff's, else the default it enforces), so this never reads "not set".
 */
export function limitsSummary(limits: Readonly<Record<string, number>> | undefined): string {
  const values = Object.values(limits ?? {});
  if (values.length === 0) return '…';
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low === high ? `${formatNumber(low)} each` : `${formatNumber(low)} to ${formatNumber(high)} by service`;
}
