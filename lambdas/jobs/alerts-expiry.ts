import { expireDueAlerts } from '../alerts/public.ts';
import type { Dependencies } from '#core/dependencies.ts';

/**
 * Job `alerts-expiry`: clears (reason `Expired`) every Triggered alert whose `expires_after` has passed, in every
 * tenant. Scheduled every 5 minutes (lib/config/job-schedules.ts).
 */
export async function alertsExpiryJob(dependencies: Dependencies, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  void input;
  return { ...(await expireDueAlerts(dependencies)) };
}
