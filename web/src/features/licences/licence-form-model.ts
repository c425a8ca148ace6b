import { LICENCE_LIMIT_MAX, LICENCE_LIMIT_MIN } from '#shared/constants/limits.ts';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { LicenceLimits } from '#shared/contract/entities/licences.ts';

/** What the number inputs hold: a number, or '' while a field is empty. */
export type LimitValues = Record<Service, number | string>;

const MESSAGE = `Enter a whole number from ${LICENCE_LIMIT_MIN} to ${LICENCE_LIMIT_MAX}`;

/** The PUT body, or one `body.<service>: message` line per field the server would refuse. */
export function checkLimits(values: LimitValues): { ok: true; body: LicenceLimits } | { ok: false; lines: string[] } {
  const lines: string[] = [];
  const body = {} as LicenceLimits;
  for (const service of SERVICES) {
    const value = values[service];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < LICENCE_LIMIT_MIN || value > LICENCE_LIMIT_MAX) {
      lines.push(`body.${service}: ${MESSAGE}`);
    } else {
      body[service] = value;
    }
  }
  return lines.length > 0 ? { ok: false, lines } : { ok: true, body };
}
