import { Badge } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useCan } from '../../lib/use-can.ts';
import { ATTENTION_SEARCH } from './alert-filters.ts';
import { summaryTotals } from './alert-labels.ts';
import { useAlertSummary } from './api/alert-summary.ts';

/** Filled badges need the darker shades for white text to keep a 4.5:1 contrast. */
const FILLED_COLOURS = { High: 'red.9', Medium: 'orange.9', Low: 'blue.9' } as const;

/**
 * The header's alert count: Triggered alerts the user has not dismissed, coloured by the most severe among them,
 * linking to the alerts screen's list of exactly those alerts (every readable scope together, active only), so the
 * count is the number of rows the link shows. Nothing when the user's roles do not include the summary, or there is nothing to see.
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
    <Badge miw="max-content"
      renderRoot={(props) => <Link {...props} to="/dashboard/account/alerts" search={ATTENTION_SEARCH} />}
      color={FILLED_COLOURS[worst]}
      variant="filled"
      tt="none"
      style={{ cursor: 'pointer' }}
      aria-label={`${total} ${total === 1 ? 'alert needs' : 'alerts need'} attention: ${detail}`}
      title={detail}
    >
      {total} {total === 1 ? 'alert' : 'alerts'}
    </Badge>
  );
}
