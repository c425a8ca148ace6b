import type { GroupStatsDelta } from '../../metrics/public.ts';
import type { Service } from '#shared/constants/devices.ts';

/**
 * Pure part of device-user writes: which group counters a user contributes to, and the difference a write makes.
 *
 * Decision: only ACTIVE (onboarded) users count in their group's stats. An offboarded user's record stays (retention),
 * but it no longer expects devices or holds a place in the group, so a group whose users all left can be deleted.
 * Per service, an onboarded user with the service holds one licence of it (docs/decisions.md "Licence use"), so
 * `used_licenses` moves with `active_users`: the group's share of the tenant's `used_<service>`.
 */

/** The fields of a device user that its group's stats depend on. */
export interface StatsFields {
  group?: string | undefined;
  is_active: boolean;
  expected_device_count: number;
  services: readonly Service[];
}

/** What one user adds to its group's stats (undefined when it adds nothing). */
export function contribution(user: StatsFields | undefined): { group: string; delta: GroupStatsDelta } | undefined {
  if (user === undefined || !user.is_active || user.group === undefined) return undefined;
  const services: NonNullable<GroupStatsDelta['services']> = {};
  for (const service of new Set(user.services)) services[service] = { used_licenses: 1, active_users: 1, expected_devices: user.expected_device_count };
  return { group: user.group, delta: { device_users: 1, expected_devices: user.expected_device_count, services } };
}

function scale(delta: GroupStatsDelta, sign: 1 | -1): GroupStatsDelta {
  const services: NonNullable<GroupStatsDelta['services']> = {};
  for (const [service, counters] of Object.entries(delta.services ?? {})) {
    services[service as Service] = Object.fromEntries(Object.entries(counters ?? {}).map(([name, value]) => [name, (value ?? 0) * sign]));
  }
  return {
    device_users: (delta.device_users ?? 0) * sign,
    expected_devices: (delta.expected_devices ?? 0) * sign,
    actual_devices: (delta.actual_devices ?? 0) * sign,
    services,
  };
}

function add(a: GroupStatsDelta, b: GroupStatsDelta): GroupStatsDelta {
  const services: NonNullable<GroupStatsDelta['services']> = {};
  for (const source of [a.services ?? {}, b.services ?? {}]) {
    for (const [service, counters] of Object.entries(source)) {
      const into = (services[service as Service] ??= {});
      for (const [name, value] of Object.entries(counters ?? {})) {
        const counter = name as keyof typeof into;
        into[counter] = (into[counter] ?? 0) + (value ?? 0);
      }
    }
  }
  return {
    device_users: (a.device_users ?? 0) + (b.device_users ?? 0),
    expected_devices: (a.expected_devices ?? 0) + (b.expected_devices ?? 0),
    actual_devices: (a.actual_devices ?? 0) + (b.actual_devices ?? 0),
    services,
  };
}

/**
 * The group-stats changes of a user moving from `before` to `after`, one entry per group touched (so each group item
 * is written once in the transaction). A change within one group nets out into one delta.
 */
export function groupStatsChanges(before: StatsFields | undefined, after: StatsFields | undefined): Map<string, GroupStatsDelta> {
  const changes = new Map<string, GroupStatsDelta>();
  const apply = (part: ReturnType<typeof contribution>, sign: 1 | -1) => {
    if (part === undefined) return;
    changes.set(part.group, add(changes.get(part.group) ?? {}, scale(part.delta, sign)));
  };
  apply(contribution(before), -1);
  apply(contribution(after), 1);
  return changes;
}
