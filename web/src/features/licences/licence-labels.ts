import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { LicenceUsage } from '#shared/contract/entities/licences.ts';
import { SERVICE_LABELS } from '../../lib/labels.ts';

/** "calls" reads "Calls"; the message services keep their capitals (the portal's one label map). */
export function serviceLabel(service: Service): string {
  return SERVICE_LABELS[service];
}

/** How full a licence is: the share used (0 to 100, capped) and a colour that warns as it fills. */
export function usageOf(usage: Pick<LicenceUsage, 'limit' | 'used'>): { percent: number; colour: string; over: boolean } {
  const over = usage.used > usage.limit;
  if (usage.limit === 0) return { percent: usage.used > 0 ? 100 : 0, colour: usage.used > 0 ? 'red' : 'gray', over };
  const percent = Math.min(100, Math.round((usage.used / usage.limit) * 100));
  return { percent, colour: over || percent >= 100 ? 'red' : percent >= 80 ? 'orange' : 'teal', over };
}

/** Usage in the contract's service order, every service present (a service never used shows 0 of its limit). */
export function inServiceOrder(data: readonly LicenceUsage[]): LicenceUsage[] {
  const byService = new Map(data.map((entry) => [entry.service, entry]));
  return SERVICES.map((service) => byService.get(service) ?? { service, limit: 0, used: 0 });
}
