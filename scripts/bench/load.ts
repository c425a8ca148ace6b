import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ulid } from 'ulid';
import { trailState } from '../../lambdas/audit/trail/chain-state.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { getDependencies, setDependencies } from '#core/composition.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import { writeSyntheticFleet } from '../local/seed/synthetic-fleet.ts';
import { startLocalStack } from '../local/stack.ts';
import { formatTable } from './measure.ts';
import { processedPayloadItem } from './payload-items.ts';

/**
 * `npm run bench -- load [--clients 200] [--seconds 60]`: the audit trail under load. A dedicated local stack in this
 * process (temp dir, loopback only); `clients` concurrent clients for `seconds`, half as admin@demo.test and half as
 * admin@acme.test, each cycling `GET dashboard`, `GET devices?limit=50`, `GET payloads?limit=50` and, every 20th
 * call, an audited download (`GET payloads/{ref}/data`, then the bytes from the link). The clients run on a worker
 * thread, so they do not share the server's event loop; each call times out after 10 s.
 *
 * Run in two modes, `seconds` each, in interleaved slices: with the activity write replaced by a no-op (a table
 * wrapper this bench injects through `setDependencies`: production has no switch for it), and audited. Prints requests/s, p50/p99, errors, the audit
 * records found for the calls answered (by request id), the chains once the sequencer drained them, and the ratio.
 * Aim: audited requests/s at least 0.8 of the no-op run, 0 errors, 0 records missing.
 */

export interface LoadOptions {
  clients: number;
  seconds: number;
}

const TENANTS = ['demo', 'acme'] as const;
const DOWNLOAD_EVERY = 20;
const PAYLOADS_PER_TENANT = 200;
const CALL_TIMEOUT_MS = 10_000;
/** Each mode's time is split into this many slices, interleaved with the other mode's. */
const SLICES = 4;

/** Reads `--clients n` and `--seconds n` (bounded: this is a loopback bench, not a load generator for hire). */
export function loadOptions(argv: readonly string[]): LoadOptions {
  const value = (flag: string, fallback: number, max: number) => {
    const index = argv.indexOf(flag);
    const parsed = index === -1 ? fallback : Number(argv[index + 1]);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) throw new Error(`${flag} must be a whole number from 1 to ${max}`);
    return parsed;
  };
  return { clients: value('--clients', 200, 500), seconds: value('--seconds', 60, 300) };
}

interface Call {
  url: string;
  token: string;
  download?: boolean;
}

interface PhaseResult {
  latencies: number[];
  statuses: Record<string, number>;
  requestIds: string[];
  errors: number;
  timeouts: number;
  errorSamples: string[];
  seconds: number;
}

/** The clients' loop, run on a worker thread (plain JS: a worker does not inherit the tsx loader). */
const CLIENTS_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { plans, seconds, timeoutMs } = workerData;
const result = { latencies: [], statuses: {}, requestIds: [], errors: 0, timeouts: 0, errorSamples: [] };
const fail = (text) => { result.errors += 1; if (result.errorSamples.length < 5) result.errorSamples.push(text.slice(0, 300)); };
async function call(request) {
  const started = performance.now();
  try {
    const response = await fetch(request.url, { headers: { authorization: 'Bearer ' + request.token }, signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    const id = response.headers.get('x-request-id');
    if (id) result.requestIds.push(id);
    result.statuses[response.status] = (result.statuses[response.status] || 0) + 1;
    let ok = response.ok;
    if (ok && request.download) {
      const data = await fetch(JSON.parse(body).s3_url, { signal: AbortSignal.timeout(timeoutMs) });
      await data.arrayBuffer();
      ok = data.ok;
      if (!ok) fail('download ' + data.status);
    } else if (!ok) fail(response.status + ' ' + request.url + ' ' + body);
    result.latencies.push(performance.now() - started);
  } catch (error) {
    if (error && error.name === 'TimeoutError') result.timeouts += 1;
    fail(String(error) + ' ' + request.url);
  }
}
(async () => {
  const started = performance.now();
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(plans.map(async (plan, client) => {
    for (let index = client; Date.now() < deadline; index += 1) await call(plan[index % plan.length]);
  }));
  result.seconds = (performance.now() - started) / 1000;
  parentPort.postMessage(result);
})();
`;

function runClients(plans: Call[][], seconds: number): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENTS_PROGRAM, { eval: true, workerData: { plans, seconds, timeoutMs: CALL_TIMEOUT_MS } });
    worker.once('message', (result: PhaseResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

/** The bench's no-op activity write: the same table, but activity records and their closing are dropped. */
function withoutActivityWrites(table: TableStore): TableStore {
  const isActivity = (item: { entity?: unknown }) => item.entity === 'UserActivity' || item.entity === 'DeviceActivity';
  return {
    ...table,
    put: async (item, options) => (isActivity(item) ? undefined : table.put(item, options)),
    update: async (key, update, options) => (update.set?.chain_state !== undefined ? undefined : table.update(key, update, options)),
    transactWrite: async (operations) => table.transactWrite(operations.filter((operation) => !(operation.kind === 'put' && isActivity(operation.item)))),
  };
}

/** Processed payloads for the lists, and one stored recording per tenant for the downloads. */
async function writePayloads(deps: Dependencies, client: string): Promise<string> {
  const now = Date.now();
  const references: string[] = [];
  for (let start = 0; start < PAYLOADS_PER_TENANT; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, async (_, offset) => {
        const reference = ulid();
        references.push(reference);
        const time = new Date(now - (start + offset) * 3_600_000).toISOString();
        await deps.table.put(processedPayloadItem(client, { reference, device: 'bench-device', type: 'Call', time }));
      }),
    );
  }
  const download = references[0] as string;
  await deps.blobs.put('processed', payloadObjectKey(client, download), Buffer.alloc(64 * 1024, 7), { contentType: 'audio/mp4' });
  return download;
}

/** Each client's cycle of calls (client i is tenant i mod 2; each starts at another point of the cycle). */
function plansFor(apiUrl: string, tenants: Record<string, { token: string; download: string }>, clients: number): Call[][] {
  return Array.from({ length: clients }, (_, index) => {
    const client = TENANTS[index % TENANTS.length] as string;
    const { token, download } = tenants[client] as { token: string; download: string };
    const base = `${apiUrl}/api/v1/${client}`;
    const cycle: Call[] = [];
    for (let step = 0; cycle.length < DOWNLOAD_EVERY; step += 1) {
      cycle.push({ url: [`${base}/dashboard`, `${base}/devices?limit=50`, `${base}/payloads?limit=50`][step % 3] as string, token });
    }
    cycle[DOWNLOAD_EVERY - 1] = { url: `${base}/payloads/${download}/data?action=download`, token, download: true };
    return cycle;
  });
}

/**
 * Waits (at most 90 s) until the server has worked off what a run left in flight: calls the clients gave up on are
 * still served, and the next run must not start behind them. Done when a probe call answers within a second.
 */
async function drain(url: string, token: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.arrayBuffer());
    if (performance.now() - started < 1_000) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;

/** Records of this run found in the tenants' lists, by the request ids the calls answered with. */
async function recordsFor(deps: Dependencies, requestIds: readonly string[], since: string): Promise<number> {
  const wanted = new Set(requestIds);
  let found = 0;
  for (const client of TENANTS) {
    let startKey: Record<string, string> | undefined;
    do {
      const page = await deps.table.query({ ...keys.userActivity.list(client), sort: { between: [since, '9'] }, limit: 1_000, ...(startKey ? { startKey } : {}) });
      for (const item of page.items) if (wanted.delete(String(item.request_id))) found += 1;
      startKey = page.lastKey;
    } while (startKey !== undefined);
  }
  return found;
}

/** One mode's slices as one run. */
function merge(parts: readonly PhaseResult[]): PhaseResult {
  const statuses: Record<string, number> = {};
  for (const part of parts) for (const [status, count] of Object.entries(part.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    latencies: parts.flatMap((part) => part.latencies),
    statuses,
    requestIds: parts.flatMap((part) => part.requestIds),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
    timeouts: parts.reduce((sum, part) => sum + part.timeouts, 0),
    errorSamples: parts.flatMap((part) => part.errorSamples).slice(0, 5),
    seconds: parts.reduce((sum, part) => sum + part.seconds, 0),
  };
}

/** Waits (at most a minute) for the local sequencer to link what was written. */
async function waitForSequencer(deps: Dependencies): Promise<void> {
  const deadline = Date.now() + 60_000;
  const waiting = async () => {
    let pending = 0;
    for (const client of TENANTS) pending += (await trailState(deps, 'user', client)).pending_count;
    return pending;
  };
  while ((await waiting()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
}

/** Waits for the sequencer, then verifies both tenants' chains. */
async function chainsAfter(deps: Dependencies): Promise<string> {
  await waitForSequencer(deps);
  const reports = await Promise.all(TENANTS.map((client) => verifyChain(deps, client, 'user', { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID })));
  return reports.map((report, index) => `${TENANTS[index]}: ${report.whole ? 'whole' : `BROKEN (${report.broken?.detail})`}, ${report.linked} linked, ${report.pending} waiting`).join('; ');
}

function summary(result: PhaseResult) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    rate: result.latencies.length / result.seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    answered: result.requestIds.length,
  };
}

/** Runs the load section; answers the printed report. */
export async function benchLoad(options: LoadOptions): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verity-bench-load-'));
  const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true });
  const lines: string[] = [];
  try {
    const deps = getDependencies();
    const tenants: Record<string, { token: string; download: string }> = {};
    for (const client of TENANTS) {
      await writeSyntheticFleet(deps, client, 100, { writer: 'bench', deactivateEvery: 10 });
      tenants[client] = { token: await signInDemoAccount(stack.apiUrl, `admin@${client}.test`), download: await writePayloads(deps, client) };
    }
    const plans = plansFor(stack.apiUrl, tenants, options.clients);
    // Warm up (handler imports, JWKS, caches), audited.
    await runClients(plansFor(stack.apiUrl, tenants, 4), 3);

    const probe = () => drain(`${stack.apiUrl}/api/v1/demo/dashboard`, (tenants.demo as { token: string }).token);
    const noopTable = withoutActivityWrites(deps.table);
    await chainsAfter(deps); // the warm-up's records linked: every slice starts with an idle sequencer

    // Interleaved slices (no-op, audited, audited, no-op, …) so the machine's other load hits both modes alike; after
    // each slice the server works off what the clients gave up on, and the sequencer links what was written.
    const since = new Date(Date.now() - 1_000).toISOString();
    const parts: { noop: PhaseResult[]; audited: PhaseResult[] } = { noop: [], audited: [] };
    for (let slice = 0; slice < SLICES; slice += 1) {
      for (const mode of slice % 2 === 0 ? (['noop', 'audited'] as const) : (['audited', 'noop'] as const)) {
        setDependencies(mode === 'noop' ? { ...deps, table: noopTable } : undefined);
        parts[mode].push(await runClients(plans, options.seconds / SLICES));
        setDependencies();
        await probe();
        await waitForSequencer(deps);
      }
    }
    const [noop, audited] = [merge(parts.noop), merge(parts.audited)];
    const written = await recordsFor(deps, audited.requestIds, since);
    const chains = await chainsAfter(deps);

    const [a, n] = [summary(audited), summary(noop)];
    const row = (label: string, phase: PhaseResult, s: ReturnType<typeof summary>, records: string) => [
      label,
      s.rate.toFixed(1),
      `${s.p50.toFixed(0)} / ${s.p99.toFixed(0)} ms`,
      String(phase.errors + (phase.timeouts > 0 ? ` (${phase.timeouts} timeouts)` : '')),
      records,
    ];
    lines.push(
      formatTable(
        ['load: activity write', 'requests/s', 'p50 / p99', 'errors', 'audit records written / calls answered'],
        [row('audited', audited, a, `${written} / ${a.answered}`), row('no-op (bench only)', noop, n, `(none written) / ${n.answered}`)],
      ),
    );
    const ratio = a.rate / n.rate;
    lines.push(`ratio audited / no-op requests/s: ${ratio.toFixed(2)} (aim >= 0.8: ${ratio >= 0.8 ? 'ok' : 'UNDER 0.8'}); records missing: ${a.answered - written}`);
    lines.push(`chains after the sequencer drained: ${chains}`);
    lines.push(`(${options.clients} clients x ${options.seconds} s per mode in ${SLICES} interleaved slices each, tenants demo and acme, every ${DOWNLOAD_EVERY}th call a download; status counts audited ${JSON.stringify(audited.statuses)}, no-op ${JSON.stringify(noop.statuses)})`);
    for (const sample of [...audited.errorSamples, ...noop.errorSamples]) lines.push(`  error: ${sample}`);
  } finally {
    setDependencies();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return lines.join('\n');
}
