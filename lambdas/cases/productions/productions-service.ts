import type * as z from 'zod';
import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { productionKeys, productionToItem, readProduction, toProduction, type ProductionItem } from '#core/store/entities/production.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, readAll } from '#core/store/paging.ts';
import {
  PRODUCTION_LINK_SECONDS,
  type CreateCaseProduction,
  type CreateSearchProduction,
  type Production,
  type ProductionCriteria,
  type ProductionDownload,
} from '#shared/contract/entities/productions.ts';
import { leaseUntil, startMarkerOperation, type TrackedJob } from '../../jobs/public.ts';
import { readCaseForCaller, readStoredCase, seatOf, seatSees } from '../case-access.ts';
import { PRODUCTION_JOB } from './production-job-name.ts';
import { selectRecordings, TooManyDocumentsError } from './selection.ts';

type CaseRequest = z.output<typeof CreateCaseProduction>;
type SearchRequest = z.output<typeof CreateSearchProduction>;

const notFound = (reference: string) => new NotFoundError(`Production ${reference} not found`);

/** A period bound as the payloads' time index sorts it (ISO 8601 UTC with milliseconds); a date-time without a zone is UTC. */
const isoOf = (value: string) => new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`).toISOString();

/** `POST cases/{case_ref}/productions`: the case (seen by the caller's team seat, else 404) gives the criteria. */
export async function createCaseProduction(caller: TenantCaller, caseReference: string, request: CaseRequest): Promise<Production> {
  const stored = await readCaseForCaller(caller, caseReference);
  const criteria: ProductionCriteria = {
    custodians: stored.custodians.device_users,
    ...(stored.counterparty_numbers.length === 0 ? {} : { counterparty_numbers: stored.counterparty_numbers }),
    from: stored.period.from,
    to: stored.period.to,
    payload_types: stored.payload_types,
  };
  if (criteria.custodians === undefined || criteria.custodians.length === 0) throw new ValidationError(['custodians: The case names no device user to produce']);
  return createProduction(caller, { kind: 'Case', caseReference, criteria, request });
}

/** `POST productions`: a search names custodians; a client copy names counterparty numbers only. */
export async function createSearchProduction(caller: TenantCaller, request: SearchRequest): Promise<Production> {
  const { criteria } = request;
  const custodians = criteria.custodians ?? [];
  const numbers = criteria.counterparty_numbers ?? [];
  if (request.client_copy === true) {
    if (numbers.length === 0) throw new ValidationError(['body.criteria.counterparty_numbers: A client copy names the client\'s numbers']);
    if (custodians.length > 0) throw new ValidationError(['body.criteria.custodians: A client copy is by counterparty number only']);
  } else if (custodians.length === 0) {
    throw new ValidationError(['body.criteria.custodians: Must name at least one custodian']);
  }
  return createProduction(caller, { kind: request.client_copy === true ? 'ClientCopy' : 'Search', criteria, request });
}

interface NewProduction {
  kind: ProductionItem['production_kind'];
  caseReference?: string;
  criteria: ProductionCriteria;
  request: CaseRequest;
}

/**
 * Records the production Pending with its running marker (one transaction: the log entry exists if and only if the job
 * is tracked) and starts its job. The records it would hold are selected now too, so an empty or too large production
 * is refused here with a 400 rather than failing later; the caller's payload types and groups go with it, because the
 * job runs without the caller.
 */
async function createProduction(caller: TenantCaller, spec: NewProduction): Promise<Production> {
  const { deps, tenant: client } = caller;
  const problems: string[] = [];
  const from = isoOf(spec.criteria.from);
  const to = isoOf(spec.criteria.to);
  if (from > to) problems.push('body.criteria.from: Must not be after to');
  if (spec.request.destination.type === 'Transfer') {
    const config = await deps.table.get(keys.transferConfig.key(client, spec.request.destination.transfer_config_reference), { consistent: true });
    if (config === undefined) problems.push(`body.destination.transfer_config_reference: ${spec.request.destination.transfer_config_reference} not found`);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const access = caller.payloadScope();
  const now = deps.clock.now();
  const reference = ulid(now.getTime());
  const production: ProductionItem = {
    client,
    production_reference: reference,
    production_kind: spec.kind,
    ...(spec.caseReference === undefined ? {} : { case_reference: spec.caseReference }),
    criteria: { ...spec.criteria, from, to },
    control_prefix: spec.request.control_prefix,
    destination: spec.request.destination,
    production_state: 'Pending',
    documents_done: 0,
    failures: [],
    created_at: now.toISOString(),
    created_by: actorOf(caller.principal),
    created_by_actor: actorRecordOf(caller.principal),
    scope_payload_types: [...access.types],
    ...(access.allGroups ? {} : { scope_groups: await visibleGroups(caller) }),
  };
  let count: number;
  try {
    count = (await selectRecordings(deps, production)).length;
  } catch (error) {
    if (error instanceof TooManyDocumentsError) throw new ValidationError([`body.criteria: ${error.message}`]);
    throw error;
  }
  if (count === 0) throw new ValidationError(['body.criteria: No records you may see match the production']);
  const pending: ProductionItem = { ...production, documents_total: count };
  const tracked: TrackedJob = { client, kind: 'production', id: reference, job: PRODUCTION_JOB, input: { client, production_reference: reference } };
  await deps.table.transactWrite([
    { kind: 'put', item: productionToItem(pending), condition: { kind: 'item-not-exists' } },
    startMarkerOperation(tracked, leaseUntil(deps.config, now), now),
  ]);
  // A start that is lost leaves the marker's lease to run out: the job sweep starts the production then.
  await deps.jobs.start(PRODUCTION_JOB, tracked.input);
  return toProduction(pending);
}

/** The tenant's groups the caller may see for the call's action, and '' for recordings in no group when allowed. */
async function visibleGroups(caller: TenantCaller): Promise<string[]> {
  const items = await readAll(caller.deps.table, keys.group.list(caller.tenant));
  const names = ['', ...items.map((item) => String(item.group_reference ?? ''))];
  return [...(await caller.groupScope().visibleOf(names))];
}

/**
 * Whether the caller may see the production: a case's only through a seat on the case team; a search production or a
 * client copy only by whoever asked for it (docs/productions.md "Who sees what"). A client copy holds one client's
 * conversations and a search is often a regulator's: neither is the whole tenant's to read, and a production more
 * people must see belongs on a case, whose team is how it is shared.
 */
async function visible(caller: TenantCaller, production: ProductionItem, cases = new Map<string, boolean>()): Promise<boolean> {
  if (production.case_reference === undefined) return production.created_by === actorOf(caller.principal);
  const known = cases.get(production.case_reference);
  if (known !== undefined) return known;
  const stored = await readStoredCase(caller.deps, caller.tenant, production.case_reference);
  const sees = stored !== undefined && seatSees(seatOf(caller), stored);
  cases.set(production.case_reference, sees);
  return sees;
}

async function readVisible(caller: TenantCaller, reference: string): Promise<ProductionItem> {
  const stored = await caller.deps.table.get(productionKeys.key(caller.tenant, reference), { consistent: true });
  if (stored === undefined) throw notFound(reference);
  const production = readProduction(stored);
  if (!(await visible(caller, production))) throw notFound(reference);
  return production;
}

/** `GET productions/{production_reference}`: its progress (404 for a case's production off the caller's team). */
export async function getProduction(caller: TenantCaller, reference: string): Promise<Production> {
  return toProduction(await readVisible(caller, reference));
}

/** `GET productions`: the log, newest first; a case's productions with `case_ref` (404 when the case is not seen). */
export async function listProductions(caller: TenantCaller, query: { case_ref?: string | undefined; last_key?: string | undefined; limit: number; result_type: 'page' | 'total' }) {
  const { deps, tenant: client } = caller;
  if (query.case_ref !== undefined) await readCaseForCaller(caller, query.case_ref);
  const list = query.case_ref === undefined ? productionKeys.list(client) : productionKeys.listByCase(client, query.case_ref);
  const cases = new Map<string, boolean>();
  return listPage(deps, {
    client,
    query: { ...list, descending: true },
    filters: { case_ref: query.case_ref },
    page: query,
    // Every list and count honours the case teams, not only the screens.
    keep: async (items: readonly TableItem[]) => {
      const kept: TableItem[] = [];
      for (const item of items) if (await visible(caller, readProduction(item), cases)) kept.push(item);
      return kept;
    },
    toData: (item) => toProduction(readProduction(item)),
  });
}

/** `GET productions/{production_reference}/download`: a short-lived link to the package once it has succeeded. */
export async function downloadProduction(caller: TenantCaller, reference: string): Promise<ProductionDownload> {
  const production = await readVisible(caller, reference);
  if (production.destination.type !== 'Download') throw new ConflictError('The production was delivered to its transfer destination, not as a download');
  if (production.production_state !== 'Succeeded' || production.download_key === undefined) throw new ConflictError(`The production is ${production.production_state}: it can be downloaded once it has succeeded`);
  const fileName = production.download_name ?? `${reference}.zip`;
  const link = (key: string, name: string) => caller.deps.blobs.presignGet('processed', key, { expiresInSeconds: PRODUCTION_LINK_SECONDS, downloadName: name });
  const url = await link(production.download_key, fileName);
  const expires = new Date(caller.deps.clock.now().getTime() + PRODUCTION_LINK_SECONDS * 1000).toISOString();
  const files = production.delivered_files ?? [];
  if (files.length <= 1) return { url, expires_at: expires, file_name: fileName };
  // In parts: each part's archive sits beside the first under the production's own prefix.
  const prefix = production.download_key.slice(0, production.download_key.lastIndexOf('/') + 1);
  const parts = await Promise.all(files.map(async (name) => ({ url: await link(`${prefix}${name}`, name), file_name: name })));
  return { url, expires_at: expires, file_name: fileName, parts };
}
