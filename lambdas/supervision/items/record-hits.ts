import type { PayloadType } from '#shared/constants/payloads.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import type { SupervisionHistoryEntry, SupervisionHit } from '#shared/contract/entities/supervision.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConflictError } from '#core/errors.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import type { SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { readStoredEntry, writeChange } from './item-store.ts';
import { versionWrites } from '../../audit/public.ts';

/** The recording policies found something on, and what they found. */
interface FoundHits {
  recording: {
    payload_reference: string;
    payload_type: PayloadType;
    payload_time: string;
    device_reference?: string | undefined;
    device_user_reference?: string | undefined;
    group?: string | undefined;
  };
  hits: SupervisionHit[];
  /** Days to review of the policies that hit: the deadline is this many days from now. */
  reviewDays: number;
  /** Who raises (the processing step or the apply job, `jobActor`). */
  actor: Actor;
}

interface RecordedHits {
  /** True when the recording entered the queue: a new item, or a Closed one a new hit reopened. */
  raised: boolean;
  /** Hits that were not on the item yet. */
  added: number;
}

const DAY_MS = 86_400_000;
/** Tries while other writers change the item under us (each try reads it again). */
const WRITE_TRIES = 5;

/** One hit per policy and term: the same policy finding the same term again is not a new reason to review. */
const hitKey = (hit: SupervisionHit) => `${hit.policy_reference}\u0000${hit.term ?? ''}`;

/** The supervised person's name as their record has it now (kept on the item, so the queue shows it without a look-up). */
async function deviceUserName(deps: Pick<Dependencies, 'table'>, client: string, reference: string | undefined): Promise<string | undefined> {
  if (reference === undefined) return undefined;
  const item = await deps.table.get(keys.deviceUser.key(client, reference));
  if (item === undefined) return undefined;
  const user = readDeviceUser(item);
  const name = [user.first_name, user.surname].filter((part) => part !== undefined && part.length > 0).join(' ');
  return name.length > 0 ? name : undefined;
}

function hitEntry(hit: { policy: string; at: string; actor: Actor; from: SupervisionItemStored['state']; to: SupervisionItemStored['state'] }): SupervisionHistoryEntry {
  return {
    event: 'hit',
    at: hit.at,
    by: hit.actor.reference,
    by_actor: hit.actor,
    from_state: hit.from,
    to_state: hit.to,
    policy_reference: hit.policy,
    ...(hit.from === 'Closed' && hit.to === 'Open' ? { note: 'Reopened by a new hit' } : {}),
    is_bulk: false,
  };
}

/** The action the job's activity record names when new hits change an item already under review. */
export const RECORD_HITS_ACTION = 'supervision:RecordHits';

/** The job's activity record of new hits on an existing item (the record that carries the item's replaced version). */
function hitsActivityEntry(found: FoundHits, itemReference: string, added: number, at: string) {
  return {
    user_id: found.actor.reference,
    actor: found.actor,
    roles: [],
    action: RECORD_HITS_ACTION,
    is_allowed: true,
    activity_time: at,
    parameters: { item_reference: itemReference, payload_reference: found.recording.payload_reference, hits_added: added },
    is_client_app: false,
  };
}

/**
 * Puts a recording in the review queue for the hits policies found on it: one item per recording (its reference is the
 * payload reference). A new item is Open, due `reviewDays` from now, with a `raise` history entry by `found.actor`. An
 * existing item gains only the hits it lacks (the same policy and term already on it is no new hit), with one `hit`
 * entry per policy among them; its deadline becomes the earlier of its own and the new hits'. A new hit on a Closed
 * item reopens it (Open, its disposition cleared from the item, the history saying so, a new deadline from now).
 * Idempotent: recording the same hits again changes nothing. The item and its history entries are written in one
 * transaction on condition of the version read, read again and retried while other writers change it.
 */
export async function recordHits(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, found: FoundHits): Promise<RecordedHits> {
  if (found.hits.length === 0) return { raised: false, added: 0 };
  const { recording } = found;
  for (let attempt = 1; attempt <= WRITE_TRIES; attempt += 1) {
    const now = deps.clock.now();
    const at = now.toISOString();
    const due = new Date(now.getTime() + found.reviewDays * DAY_MS).toISOString();
    const read = await readStoredEntry(deps, client, recording.payload_reference);
    const unique = [...new Map(found.hits.map((hit) => [hitKey(hit), hit])).values()];
    if (read === undefined) {
      const name = await deviceUserName(deps, client, recording.device_user_reference);
      const item: SupervisionItemStored = {
        item_reference: recording.payload_reference,
        payload_type: recording.payload_type,
        payload_time: recording.payload_time,
        ...(recording.device_reference === undefined ? {} : { device_reference: recording.device_reference }),
        ...(recording.device_user_reference === undefined ? {} : { device_user_reference: recording.device_user_reference }),
        ...(name === undefined ? {} : { device_user_name: name }),
        ...(recording.group === undefined ? {} : { group: recording.group }),
        hits: unique,
        policy_references: [...new Set(unique.map((hit) => hit.policy_reference))],
        state: 'Open',
        due_at: due,
        raised_at: at,
        updated_at: at,
        item_version: 1,
      };
      const entry: SupervisionHistoryEntry = { event: 'raise', at, by: found.actor.reference, by_actor: found.actor, to_state: 'Open', policy_reference: unique[0]!.policy_reference, is_bulk: false };
      if (await writeChange(deps, client, { next: item, previousVersion: undefined, entries: [entry] })) return { raised: true, added: unique.length };
      continue;
    }
    const current = read.stored;
    // Retention disposed of this review (closed long ago, its period over): the record of it is gone, and a late hit
    // on the same recording does not bring it back.
    if (current.retention_state !== undefined) return { raised: false, added: 0 };
    const present = new Set(current.hits.map(hitKey));
    const added = unique.filter((hit) => !present.has(hitKey(hit)));
    if (added.length === 0) return { raised: false, added: 0 };
    const reopens = current.state === 'Closed';
    const policies = [...new Set(added.map((hit) => hit.policy_reference))];
    const entries = policies.map((policy, index) => hitEntry({ policy, at, actor: found.actor, from: index === 0 || !reopens ? current.state : 'Open', to: reopens ? 'Open' : current.state }));
    const { disposition: _d, note: _n, closed_by: _by, closed_by_actor: _byActor, closed_at: _at, assignee: _holder, assignee_actor: _holderActor, ...open } = current;
    const base = reopens ? { ...open, state: 'Open' as const, due_at: due } : { ...current, due_at: due < current.due_at ? due : current.due_at };
    const next: SupervisionItemStored = {
      ...base,
      hits: [...current.hits, ...added],
      policy_references: [...new Set([...current.policy_references, ...policies])],
      updated_at: at,
      item_version: current.item_version + entries.length,
    };
    // The item as it was is kept with the change, by who raised the hits (a job, outside any call): the job's own
    // activity record, written in the same transaction, carries the version's digest, so the chain covers it.
    const record = { trail: 'user' as const, client, entry: hitsActivityEntry(found, current.item_reference, added.length, at), requestId: `${found.actor.reference}:${current.item_reference}` };
    const also = versionWrites({ deps, principal: undefined, actor: found.actor, record }, [{ entity: 'supervision-item', reference: current.item_reference, stored: read.item, change: 'updated' }]);
    if (await writeChange(deps, client, { next, previousVersion: current.item_version, entries, wasClosed: reopens, also })) return { raised: reopens, added: added.length };
  }
  throw new ConflictError(`Review item ${recording.payload_reference} kept changing while its hits were recorded; try again`);
}
