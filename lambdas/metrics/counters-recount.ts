import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { ConditionFailedError, type ItemKey, type TableItem, type TransactOperation, type WriteCondition } from '../core/ports/table-store.ts';
import { allClients } from '../core/store/all-clients.ts';
import { readDashboardCounters } from '../core/store/entities/dashboard-counters.ts';
import { readDevice, type DeviceItem } from '../core/store/entities/device.ts';
import { readDeviceUser, type DeviceUserItem } from '../core/store/entities/device-user.ts';
import { GROUP_COUNTERS, readGroup, SERVICE_COUNTERS, statsAttribute } from '../core/store/entities/group.ts';
import { ENTITY, keys, tenantPrefix } from '../core/store/keys.ts';
import { eachPage, readAll } from '../core/store/paging.ts';
import { contribution } from '../devices/public.ts';
import { licenceUseChanges, usedAttribute } from '../licences/public.ts';
import { dashboardIncrements, deviceCounterChanges, deviceUserCounterChanges, mergeDashboardChanges, type DashboardChanges } from './dashboard-counters.ts';
import { deviceContribution } from './device-group-stats.ts';
import { statsIncrements, type GroupStatsDelta } from './group-stats.ts';

/**
 * The counters recount (job `counters-recount`): recomputes, from the items they count, every counter kept at write
 * time for devices and device users, and writes the right values where the stored ones differ. It repairs counters
 * written wrong before a rule existed or by a write that bypassed it (the licence use before licence-use moved with
 * every write, group `used_licenses` and `active_devices` before they were kept): the definitions are the write
 * paths' own functions (deviceCounterChanges, deviceUserCounterChanges, contribution, deviceContribution,
 * licenceUseChanges), applied to each item as if it were written now, so the recount cannot define a count apart.
 *
 * Per tenant: the counter items are read first (consistently), then the tenant's device users and devices by Query,
 * page by page (never a Scan); each counter item that differs is SET to the recount, conditional on every counter of
 * it still holding what was read. A write that moved a counter meanwhile fails that condition, and the tenant is
 * counted again (three tries). Idempotent: a second run finds nothing to change. Resumable: tenants go in the order of
 * the account list, the report names the last one done, and `after` starts past it.
 */

export const COUNTERS_RECOUNT_JOB = 'counters-recount';

type Deps = Pick<Dependencies, 'table' | 'logger'>;

/** One counter item: its key, the attributes it must hold (name → value) and what labels it carries. */
interface Target {
  kind: 'dashboard' | 'licence' | 'group';
  key: ItemKey;
  labels: Record<string, unknown>;
  counters: Record<string, number>;
}

/** What the recount of one tenant changed: per counter item (by a readable name), attribute → [stored, recounted]. */
export interface TenantRecount {
  client: string;
  changed: Record<string, Record<string, [number, number]>>;
  tries: number;
}

const GROUP_ATTRIBUTES: readonly string[] = [
  ...GROUP_COUNTERS.map((counter) => statsAttribute(counter)),
  ...SERVICES.flatMap((service) => SERVICE_COUNTERS.map((counter) => statsAttribute(counter, service))),
];

const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The counters the tenant's items add up to, by the write paths' own rules, tallied one page of items at a time (a
 * tenant's fleet is never held in memory whole): `addUsers` and `addDevices` per page, then `targets()`.
 */
export class CounterTally {
  /** Dashboard: every device; every user retention has not disposed of (it leaves the counts then). */
  private dashboard: DashboardChanges = {};
  /** Licence use: the onboarded users' services. */
  private readonly licences: Record<string, number> = Object.fromEntries(SERVICES.map((service) => [usedAttribute(service), 0]));
  /** Group stats: the onboarded users' and the devices' contributions, to groups that exist. */
  private readonly stats: Map<string, Record<string, number>>;

  constructor(
    private readonly client: string,
    groups: ReadonlySet<string>,
  ) {
    this.stats = new Map([...groups].map((group) => [group, Object.fromEntries(GROUP_ATTRIBUTES.map((attribute) => [attribute, 0]))]));
  }

  addUsers(users: readonly DeviceUserItem[]): void {
    for (const user of users) {
      if (user.retention_state === undefined) this.dashboard = mergeDashboardChanges(this.dashboard, deviceUserCounterChanges(undefined, user));
      for (const [service, value] of Object.entries(licenceUseChanges(undefined, user))) {
        const name = usedAttribute(service as Service);
        this.licences[name] = (this.licences[name] ?? 0) + (value ?? 0);
      }
      this.addToGroup(contribution(user));
    }
  }

  addDevices(devices: readonly DeviceItem[]): void {
    for (const device of devices) {
      this.dashboard = mergeDashboardChanges(this.dashboard, deviceCounterChanges(undefined, device));
      this.addToGroup(deviceContribution(device));
    }
  }

  private addToGroup(part: { group: string; delta: GroupStatsDelta } | undefined): void {
    const into = part === undefined ? undefined : this.stats.get(part.group);
    if (part === undefined || into === undefined) return;
    for (const [attribute, value] of Object.entries(statsIncrements(part.delta))) into[attribute] = (into[attribute] ?? 0) + value;
  }

  targets(): Target[] {
    const { client, dashboard } = this;
    return [
      { kind: 'dashboard', key: keys.device.dashboardCounters(client), labels: { entity: ENTITY.dashboardCounters }, counters: dashboardIncrements(dashboard) },
      ...Object.entries(dashboard.groups ?? {}).map(([group, share]): Target => ({
        kind: 'dashboard',
        key: keys.device.groupDashboardCounters(client, group),
        labels: { entity: ENTITY.dashboardCounters, group },
        counters: dashboardIncrements(share),
      })),
      { kind: 'licence', key: keys.licence.item(client), labels: { entity: ENTITY.licences, client }, counters: { ...this.licences } },
      ...[...this.stats].map(([group, counters]): Target => ({ kind: 'group', key: keyOnly(keys.group.item(client, group)), labels: {}, counters: { ...counters } })),
    ];
  }
}

/** The counters `users` and `devices` add up to (one tally of them). */
export function expectedCounters(client: string, users: readonly DeviceUserItem[], devices: readonly DeviceItem[], groups: ReadonlySet<string>): Target[] {
  const tally = new CounterTally(client, groups);
  tally.addUsers(users);
  tally.addDevices(devices);
  return tally.targets();
}

const keyOnly = ({ pk, sk }: ItemKey) => ({ pk, sk });
const idOf = ({ pk, sk }: ItemKey) => `${pk}\u0000${sk}`;

/** The counter attributes of a stored counter item (those the recount owns). */
function storedCounters(kind: Target['kind'], item: TableItem): Record<string, number> {
  if (kind === 'licence') return Object.fromEntries(SERVICES.map(usedAttribute).filter((name) => item[name] !== undefined).map((name) => [name, numberOf(item[name])]));
  if (kind === 'group') return Object.fromEntries(GROUP_ATTRIBUTES.filter((name) => item[name] !== undefined).map((name) => [name, numberOf(item[name])]));
  return readDashboardCounters(item).counters;
}

/** SET the recounted values (0 for a stored counter nothing counts any more), if the stored ones are still as read. */
function repair(target: Target, stored: TableItem | undefined): { operation: TransactOperation; changes: Record<string, [number, number]> } | undefined {
  const current = stored === undefined ? {} : storedCounters(target.kind, stored);
  const wanted: Record<string, number> = { ...Object.fromEntries(Object.keys(current).map((name) => [name, 0])), ...target.counters };
  const changes: Record<string, [number, number]> = {};
  for (const [name, value] of Object.entries(wanted)) {
    const before = current[name];
    if (before !== value && !(before === undefined && value === 0)) changes[name] = [before ?? 0, value];
  }
  if (Object.keys(changes).length === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = Object.keys(changes).map((name, index) => {
    names[`#r${index}`] = name;
    if (current[name] === undefined) return `attribute_not_exists(#r${index})`;
    values[`:r${index}`] = stored?.[name];
    return `#r${index} = :r${index}`;
  });
  // A group item must still exist (its stats are never created on their own); other counter items may be created.
  if (target.kind === 'group') clauses.unshift('attribute_exists(pk)');
  const condition: WriteCondition = { kind: 'expression', expression: clauses.join(' AND '), names, ...(Object.keys(values).length > 0 ? { values } : {}) };
  const set = { ...target.labels, ...Object.fromEntries(Object.entries(changes).map(([name, [, value]]) => [name, value])) };
  return { operation: { kind: 'update', key: target.key, update: { set }, condition }, changes };
}

/** Items read per Query page. */
const PAGE = 500;

/** Recounts one tenant (see above); `dryRun` reports the differences without writing. */
export async function recountTenant(deps: Deps, client: string, options: { dryRun?: boolean } = {}): Promise<TenantRecount> {
  for (let tries = 1; ; tries += 1) {
    // The counter items first: a write after this read moves one of them, and the conditional SET below sees it.
    // Limit: the user and device lists are index Queries (eventually consistent), so a write landing within the
    // index's lag before this read may be in the counters but not yet in the lists: run the job when writes are quiet,
    // or a second time, which finds nothing to change when the first was right.
    const [tenantDashboard, licence, shares, groupItems] = await Promise.all([
      deps.table.get(keys.device.dashboardCounters(client), { consistent: true }),
      deps.table.get(keys.licence.item(client), { consistent: true }),
      readAll(deps.table, { ...keys.device.listGroupDashboardCounters(client), consistent: true }),
      readAll(deps.table, { ...keys.group.list(client), consistent: true }),
    ]);
    const stored = new Map<string, TableItem>();
    for (const item of [tenantDashboard, licence, ...shares, ...groupItems]) if (item !== undefined) stored.set(idOf(item as ItemKey), item);
    const groups = new Set(groupItems.map((item) => readGroup(item).group_reference));
    const tally = new CounterTally(client, groups);
    for await (const page of eachPage(deps.table, keys.deviceUser.list(client), PAGE)) tally.addUsers(page.map(readDeviceUser));
    for await (const page of eachPage(deps.table, keys.device.list(client), PAGE)) tally.addDevices(page.map(readDevice));

    const targets = tally.targets();
    const targeted = new Set(targets.map((target) => idOf(target.key)));
    // A group's dashboard share that nothing counts in any more is recounted to zero.
    for (const share of shares) {
      if (!targeted.has(idOf(share as ItemKey))) targets.push({ kind: 'dashboard', key: keyOnly(share as ItemKey), labels: { entity: ENTITY.dashboardCounters }, counters: {} });
    }
    const repairs = targets.flatMap((target) => {
      const fix = repair(target, stored.get(idOf(target.key)));
      return fix === undefined ? [] : [{ name: nameOf(client, target.key), ...fix }];
    });
    const changed = Object.fromEntries(repairs.map((fix) => [fix.name, fix.changes]));
    if (options.dryRun === true || repairs.length === 0) return { client, changed, tries };
    try {
      // One item per update: each repair is atomic on its own item, and a failed one leaves the others right.
      for (const fix of repairs) await deps.table.transactWrite([fix.operation]);
      return { client, changed, tries };
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || tries >= 3) throw error;
      deps.logger.info('counters changed during the recount: counting again', { client, tries });
    }
  }
}

/** A readable name of a counter item, for the report. */
function nameOf(client: string, key: ItemKey): string {
  const prefix = tenantPrefix(client);
  const pk = key.pk.startsWith(prefix) ? key.pk.slice(prefix.length) : key.pk;
  return `${pk}/${key.sk}`;
}

/** The job: one tenant (`client`), or every tenant in account-list order after `after`; `dry_run` writes nothing. */
export async function countersRecountJob(deps: Deps, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const dryRun = input.dry_run === true;
  const only = typeof input.client === 'string' ? input.client : undefined;
  const after = typeof input.after === 'string' ? input.after : undefined;
  const tenants: TenantRecount[] = [];
  let lastClient: string | undefined;
  const clients = only === undefined ? allClients(deps.table) : oneClient(only);
  for await (const client of clients) {
    if (after !== undefined && client <= after) continue;
    tenants.push(await recountTenant(deps, client, { dryRun }));
    lastClient = client;
  }
  const repaired = tenants.filter((tenant) => Object.keys(tenant.changed).length > 0);
  return { dry_run: dryRun, clients: tenants.length, repaired: repaired.length, last_client: lastClient, changes: Object.fromEntries(repaired.map((tenant) => [tenant.client, tenant.changed])) };
}

async function* oneClient(client: string): AsyncGenerator<string> {
  yield client;
}
