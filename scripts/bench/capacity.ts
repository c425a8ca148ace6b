import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { pathParamNames, type Endpoint } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig, resetConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity, ROUTE_CAPACITY, type CapacityTotals } from '#core/ports/capacity-meter.ts';
import { eventFor } from '#core/testing/http-events.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import { LOCAL_CREDENTIALS } from '../local/dynamodb.ts';
import { REPO_ROOT, startLocalStack } from '../local/stack.ts';
import { seedCapacityTenant, threadOf, type SeededTenant } from './capacity-seed.ts';
import { benchCapacityJobs, type JobFigure } from './capacity-jobs.ts';
import { formatTable } from './measure.ts';

/**
 * `npm run bench -- capacity [--small n] [--large n]`: what every list and detail endpoint and every job costs the
 * table, in DynamoDB's billing units, at two sizes of one tenant's history (default 1,000 and 1,000,000 recordings,
 * with devices, users, logs, GPS, alerts and activity in proportion: ./capacity-seed.ts). Tenant `demo` gets the
 * small history and `acme` the large one, on a local stack of its own in a temp dir.
 *
 * Each endpoint is called in this process through its group's Lambda handler (the same middy pipeline API Gateway
 * invokes), signed in as the tenant's admin, inside a capacity meter (lambdas/core/ports/capacity-meter.ts), once to
 * warm the caches and once measured. Each job is run the same way (./capacity-jobs.ts) and divided by the items it
 * handled. Two aims per row (docs/architecture.md, "Capacity"): the large figure at most 1.2 × the small one (the cost
 * does not grow with history), and each figure at most 1.5 × the least its answer needs. A row that misses says MISS.
 */

const DEFAULT_SMALL = 1_000;
const DEFAULT_LARGE = 1_000_000;
export const RATIO_AIM = 1.2;
export const LEAST_AIM = 1.5;

/** Half a read unit per 4 KB read eventually consistent (what a list or detail read needs), one write unit per 1 KB. */
export const readUnitsFor = (bytes: number): number => 0.5 * Math.max(1, Math.ceil(bytes / 4096));
export const writeUnitsFor = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

export function capacitySizes(args: readonly string[]): { small: number; large: number } {
  const flag = (name: string, fallback: number) => {
    const index = args.indexOf(name);
    const value = Number(index >= 0 ? args[index + 1] : fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of recordings, at least 1`);
    return value;
  };
  return { small: flag('--small', Number(process.env.BENCH_CAPACITY_SMALL ?? DEFAULT_SMALL)), large: flag('--large', Number(process.env.BENCH_CAPACITY_LARGE ?? DEFAULT_LARGE)) };
}

type Handler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface Measured {
  status: number;
  capacity: CapacityTotals;
  /** The endpoint implementation's part (the rest is the pipeline's: caller, permission, activity record). */
  route: CapacityTotals;
  /** The answer's records: a list's items, else one. */
  records: number;
  bytes: number;
  body: unknown;
}

interface Tenant {
  seeded: SeededTenant;
  token: string;
}

const handlers = new Map<string, Promise<Handler>>();
function handlerOf(group: string): Promise<Handler> {
  let loading = handlers.get(group);
  if (loading === undefined) {
    loading = import(pathToFileURL(join(REPO_ROOT, 'lambdas', group, 'handler.ts')).href).then((module: { handler: Handler }) => module.handler);
    handlers.set(group, loading);
  }
  return loading;
}

/** The first array of records in an answer (`items`, `data`, …), or undefined for a single record. */
function recordsOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (body === null || typeof body !== 'object') return undefined;
  for (const value of Object.values(body)) if (Array.isArray(value) && value.every((element) => typeof element === 'object')) return value;
  return undefined;
}

/**
 * The query a list needs when the contract refuses it bare: `GET completeness/entries` answers 400 unless it names an
 * outcome, a device user or a device (shared/contract/endpoints/completeness.ts), so it is asked for one device's
 * entries, the narrowest of its lists, as a person drilling into a device's count asks.
 */
function queryFor(endpoint: Endpoint, tenant: Tenant): Record<string, string> | undefined {
  if (endpoint.id === 'client.completeness.entries') return { device_reference: tenant.seeded.devices[0] as string };
  return undefined;
}

async function call(endpoint: Endpoint, tenant: Tenant, params: Record<string, string>): Promise<Measured> {
  const handler = await handlerOf(endpoint.group);
  const query = queryFor(endpoint, tenant);
  const event = eventFor(endpoint, {
    ...(query === undefined ? {} : { query }),
    pathParameters: { client: tenant.seeded.client, ...params },
    headers: endpoint.auth === 'public' ? {} : { authorization: `Bearer ${tenant.token}` },
  });
  let route: CapacityTotals | undefined;
  const { result, capacity } = await measureCapacity(async (meter) => {
    const answer = await handler(event, { awsRequestId: 'bench' } as Context);
    route = meter.totals(ROUTE_CAPACITY);
    return answer;
  });
  const text = result.body ?? '';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const records = recordsOf(body);
  return { status: result.statusCode ?? 0, capacity, route: route as CapacityTotals, records: records === undefined ? 1 : records.length, bytes: Buffer.byteLength(text), body };
}

/** A path parameter's value for one tenant: a seeded subject, an enum's first value, or the first of its list's answer. */
async function paramsFor(endpoint: Endpoint, tenant: Tenant, lists: Map<string, Measured>): Promise<Record<string, string> | string> {
  const seeded: Record<string, string | undefined> = {
    device_reference: tenant.seeded.devices[0],
    device_user_reference: tenant.seeded.deviceUsers[0],
    payload_reference: tenant.seeded.newestRecording,
    alert_reference: tenant.seeded.alerts.at(-1),
    thread_id: threadOf(0),
  };
  const values: Record<string, string> = {};
  for (const name of pathParamNames(endpoint.fullPath).filter((param) => param !== 'client')) {
    const schema = (endpoint.params.shape as Record<string, z.ZodType>)[name];
    const options = (schema as unknown as { options?: unknown[] } | undefined)?.options;
    const fromList = () => {
      // `/things/{thing}` takes the first record of `/things`.
      const listPath = endpoint.fullPath.slice(0, endpoint.fullPath.lastIndexOf(`/{${name}}`));
      const list = lists.get(`${tenant.seeded.client} ${listPath}`);
      const first = list === undefined ? undefined : (recordsOf(list.body)?.[0] as Record<string, unknown> | undefined);
      const value = first?.[name];
      return typeof value === 'string' ? value : undefined;
    };
    const value = seeded[name] ?? (Array.isArray(options) && typeof options[0] === 'string' ? options[0] : undefined) ?? fromList();
    if (value === undefined) return `no ${name} to ask for`;
    values[name] = value;
  }
  return values;
}

const round = (value: number) => (Math.round(value * 100) / 100).toString();
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISS');

/**
 * The least the endpoint's answer needs: its records' bytes (the size the route read per item) read once at half a unit
 * per 4 KB, summed as a Query sums them, and each item the route wrote once at a unit per 1 KB. The pipeline's part
 * around it (who calls, may they, the activity record) is the same for every endpoint and shown on its own.
 */
function leastOf(measured: Measured): number {
  const { route } = measured;
  const itemBytes = route.itemsRead > 0 ? route.bytesRead / route.itemsRead : 0;
  const reads = readUnitsFor(Math.max(1, measured.records) * itemBytes);
  const writes = route.itemsWritten > 0 ? route.itemsWritten * writeUnitsFor(route.bytesWritten / route.itemsWritten) : 0;
  return reads + writes;
}

const total = (capacity: CapacityTotals) => capacity.readUnits + capacity.writeUnits;
const minus = (a: CapacityTotals, b: CapacityTotals): CapacityTotals =>
  Object.fromEntries(Object.entries(a).map(([name, value]) => [name, value - b[name as keyof CapacityTotals]])) as unknown as CapacityTotals;
const units = (capacity: CapacityTotals) => `${round(capacity.readUnits)} R + ${round(capacity.writeUnits)} W`;

async function benchEndpoints(tenants: { small: Tenant; large: Tenant }): Promise<{ rows: string[][]; pipelines: CapacityTotals[] }> {
  const pipelines: CapacityTotals[] = [];
  // Lists before details: a detail's subject may come from its list's answer.
  const gets = (ENDPOINTS as readonly Endpoint[])
    .filter((endpoint) => endpoint.method === 'GET' && (endpoint.surface === 'admin' || endpoint.surface === 'client'))
    .sort((a, b) => pathParamNames(a.fullPath).length - pathParamNames(b.fullPath).length);
  const lists = new Map<string, Measured>();
  const rows: string[][] = [];
  for (const endpoint of gets) {
    const figures: Partial<Record<'small' | 'large', Measured>> = {};
    let skipped: string | undefined;
    for (const size of ['small', 'large'] as const) {
      const tenant = tenants[size];
      const params = await paramsFor(endpoint, tenant, lists);
      if (typeof params === 'string') {
        skipped = params;
        break;
      }
      await call(endpoint, tenant, params);
      const measured = await call(endpoint, tenant, params);
      lists.set(`${tenant.seeded.client} ${endpoint.fullPath}`, measured);
      figures[size] = measured;
    }
    const label = `${endpoint.method} ${endpoint.path}`;
    if (skipped !== undefined || figures.small === undefined || figures.large === undefined) {
      rows.push([label, 'not measured', '', '', '', '', '', '', skipped ?? '']);
      continue;
    }
    const { small, large } = figures;
    if (small.status >= 300 || large.status >= 300) {
      const message = (large.body as { message?: string } | undefined)?.message?.split('\n')[0] ?? '';
      rows.push([label, `answered ${small.status} / ${large.status}`, '', '', '', '', '', '', message.slice(0, 80)]);
      continue;
    }
    // Both figures are the endpoint's own part; the pipeline's (the same for every call) has its own row below.
    // One answer empty and the other not (a list the jobs filled at one size only): nothing to compare.
    if ((small.records === 0) !== (large.records === 0) && recordsOf(small.body) !== undefined) {
      rows.push([label, units(small.route), units(large.route), 'not comparable', `${small.records} / ${large.records}`, '', '', `${small.route.itemsRead} / ${large.route.itemsRead}`, 'one answer is empty']);
      continue;
    }
    // Per record when the two answers differ in size (a device's logs: fewer at the small size), else per request.
    const perRecord = small.records > 0 && large.records > 0 && small.records !== large.records;
    const ratio = perRecord
      ? total(large.route) / large.records / (Math.max(0.5, total(small.route)) / small.records)
      : total(large.route) / Math.max(0.5, total(small.route));
    const leastSmall = leastOf(small);
    const leastLarge = leastOf(large);
    const worst = Math.max(total(small.route) / leastSmall, total(large.route) / leastLarge);
    rows.push([
      label,
      units(small.route),
      units(large.route),
      `${round(ratio)}${perRecord ? ' per record' : ''} ${verdict(ratio <= RATIO_AIM)}`,
      `${small.records} / ${large.records}`,
      `${round(leastSmall)} / ${round(leastLarge)}`,
      `${round(worst)} ${verdict(worst <= LEAST_AIM)}`,
      `${small.route.itemsRead} / ${large.route.itemsRead}`,
      `+ pipeline ${units(minus(large.capacity, large.route))}`,
    ]);
    // A public call has no pipeline reads or writes (nobody to authenticate or record).
    if (endpoint.auth !== 'public') pipelines.push(minus(small.capacity, small.route), minus(large.capacity, large.route));
  }
  return { rows, pipelines };
}

/**
 * The pipeline's part of a user call, the most any measured call spent on it: authenticate, authorize (the caller's
 * roles), write the activity record before acting and close it after. Its least: what it read at half a unit per 4 KB
 * each, and one unit per 1 KB of each item it wrote.
 */
function pipelineRow(pipelines: CapacityTotals[]): string[] {
  const most = pipelines.reduce((a, b) => (total(b) > total(a) ? b : a));
  const least =
    most.itemsRead * readUnitsFor(most.bytesRead / Math.max(1, most.itemsRead)) + most.itemsWritten * writeUnitsFor(most.bytesWritten / Math.max(1, most.itemsWritten));
  const fewest = pipelines.reduce((a, b) => (total(b) < total(a) ? b : a));
  const ratio = total(most) / Math.max(0.5, total(fewest));
  return [
    'request pipeline (every user call)',
    units(fewest),
    units(most),
    `${round(ratio)} ${verdict(ratio <= RATIO_AIM)}`,
    '',
    round(least),
    `${round(total(most) / least)} ${verdict(total(most) / least <= LEAST_AIM)}`,
    `${most.itemsRead}`,
    `${most.itemsWritten} item(s) written, ${most.bytesWritten} bytes (least and most of all user calls, both sizes)`,
  ];
}

function jobRows(figures: JobFigure[]): string[][] {
  return figures.map((figure) => {
    if (figure.small === undefined || figure.large === undefined) return [figure.label, 'not measured', '', '', '', '', '', '', figure.note ?? ''];
    const per = (side: NonNullable<JobFigure['small']>) => total(side.capacity) / Math.max(1, side.items);
    // Nothing consumed at either size is flat; nothing at the small size only is not.
    const ratio = per(figure.small) === 0 ? (per(figure.large) === 0 ? 1 : Number.POSITIVE_INFINITY) : per(figure.large) / per(figure.small);
    const worst = Math.max(per(figure.small) / figure.small.leastPerItem, per(figure.large) / figure.large.leastPerItem);
    const perItem = (side: NonNullable<JobFigure['small']>) =>
      `${round(side.capacity.readUnits / Math.max(1, side.items))} R + ${round(side.capacity.writeUnits / Math.max(1, side.items))} W`;
    return [
      figure.label,
      perItem(figure.small),
      perItem(figure.large),
      `${round(ratio)} ${verdict(ratio <= RATIO_AIM)}`,
      `${figure.small.items} / ${figure.large.items}`,
      `${round(figure.small.leastPerItem)} / ${round(figure.large.leastPerItem)}`,
      `${round(worst)} ${verdict(worst <= LEAST_AIM)}`,
      `${figure.small.capacity.itemsRead} / ${figure.large.capacity.itemsRead}`,
      figure.note ?? '',
    ];
  });
}

export async function benchCapacity(sizes: { small: number; large: number }, log: (line: string) => void = console.log): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verity-bench-capacity-'));
  const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true });
  try {
    // The handlers read the process's configuration: errors only (a seeded recording's sealed meta is not a real seal,
    // so the detail reads warn that it does not open).
    process.env.LOG_LEVEL = 'error';
    resetConfig();
    const config = loadConfig({ ...stack.env, LOG_LEVEL: 'error' });
    const deps: Dependencies = buildDependencies(config);
    const documents = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: stack.env.AWS_REGION, credentials: LOCAL_CREDENTIALS }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    const table = { documents, tableName: stack.env.TABLE_NAME };
    const seeded: Record<'small' | 'large', SeededTenant> = {
      small: await seedCapacityTenant(deps, table, 'demo', { recordings: sizes.small, progress: log }),
      large: await seedCapacityTenant(deps, table, 'acme', { recordings: sizes.large, progress: log }),
    };
    for (const tenant of Object.values(seeded)) {
      log(`Seeded ${tenant.client}: ${tenant.recordings.toLocaleString('en-GB')} recordings, ${tenant.itemsWritten.toLocaleString('en-GB')} items in ${tenant.seconds.toFixed(1)} s`);
    }
    const tenants = {
      small: { seeded: seeded.small, token: await signInDemoAccount(stack.apiUrl, 'admin@demo.test') },
      large: { seeded: seeded.large, token: await signInDemoAccount(stack.apiUrl, 'admin@acme.test') },
    };
    const header = [
      'endpoint / job',
      `@ ${sizes.small.toLocaleString('en-GB')}`,
      `@ ${sizes.large.toLocaleString('en-GB')}`,
      `large/small (aim ≤ ${RATIO_AIM})`,
      'records',
      'least',
      `vs least (aim ≤ ${LEAST_AIM})`,
      'items read',
      'note',
    ];
    // Jobs first: the transfer they run is what the transfer detail endpoints then ask for.
    log('Jobs…');
    const jobs = await benchCapacityJobs({ deps, stack, seeded, log });
    log('Endpoints…');
    const { rows: measuredRows, pipelines } = await benchEndpoints(tenants);
    const endpointRows = pipelines.length === 0 ? measuredRows : [...measuredRows, pipelineRow(pipelines)];
    const misses = [...endpointRows, ...jobRows(jobs)].filter((row) =>
      row.some((cell) => cell.includes('MISS') || cell === 'not measured' || cell === 'not comparable' || cell.startsWith('answered')),
    );
    return [
      'Per request, the endpoint\'s own part (R = read units, W = write units; least = its records\' bytes at ½ unit per 4 KB, and 1 unit per 1 KB written); the pipeline\'s part is the last row:',
      formatTable(header, endpointRows),
      '',
      'Per item handled by the job (least = what one item needs: ./capacity-jobs.ts names it per job):',
      formatTable(header, jobRows(jobs)),
      '',
      `${misses.length} row(s) miss an aim or were not measured. DynamoDB Local reports a transaction's writes at the plain rate; AWS bills them twice.`,
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
