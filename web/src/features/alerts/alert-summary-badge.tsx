import { Badge } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { ALERT_SEVERITIES, type AlertSeverity } from '#shared/constants/alerts.ts';
import type { AlertSummary } from '#shared/contract/entities/alerts.ts';
import { useCan } from '../../lib/use-can.ts';
import { SEVERITY_COLOURS } from './alert-labels.ts';
import { useAlertSummary } from './alert-summary.ts';

/** Totals per severity (both scopes together), highest first, leaving out severities with none. */
export function summaryTotals(summary: readonly AlertSummary[]): { total: number; bySeverity: [AlertSeverity, number][] } {
  const counts = new Map<AlertSeverity, number>();
  for (const entry of summary) counts.set(entry.severity, (counts.get(entry.severity) ?? 0) + entry.count);
  const bySeverity = [...ALERT_SEVERITIES]
    .reverse()
    .map((severity) => [severity, counts.get(severity) ?? 0] as [AlertSeverity, number])
    .filter(([, count]) => count > 0);
  return { total: bySeverity.reduce((sum, [, count]) => sum + count, 0), bySeverity };
}

/**
 * The header's alert count: Triggered alerts the user has not dismissed, coloured by the most severe among them,
 * linking to the alerts screen. Nothing when the user's roles do not include the summary, or there is nothing to see.
 */
export function AlertSummaryBadge() {
  const allowed = useCan('alerts:Summary').allowed;
  const summary = useAlertSummary(allowed);
  if (!allowed || summary.data === undefined) return null;
  const { total, bySeverity } = summaryTotals(summary.data.data);
  if (total === 0) return null;
  const worst = bySeverity[0]?.[0] ?? 'Low';
  const detail = bySeverity.map(([severity, count]) => `${count} ${severity.toLowerCase()}`).join(', ');
  return (
    <Badge
      renderRoot={(props) => <Link {...props} to="/dashboard/account/alerts" search={{ active_only: true }} />}
      color={SEVERITY_COLOURS[worst]}
      variant="filled"
      style={{ cursor: 'pointer' }}
      aria-label={`${total} ${total === 1 ? 'alert needs' : 'alerts need'} attention: ${detail}`}
      title={detail}
    >
      {total} {total === 1 ? 'alert' : 'alerts'}
    </Badge>
  );
}
