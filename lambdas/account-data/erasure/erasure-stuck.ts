import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { erasureRequestKeys, readErasureRequest } from '#core/store/entities/erasure-request.ts';
import { endMarkerOperation } from '../../jobs/public.ts';
import { dueMarkerPuts } from '../retention/due-index.ts';

/**
 * What the job-sweep needs of an erasure job (lambdas/jobs/stuck-job-kinds.ts): whether its walk goes on and how far it
 * got (the pages written), and how to end it when resumptions make no progress: `Failed` with why, its marker removed
 * in the same transaction. What was erased before stays erased, each with its disposal record.
 */

type Phase = 'decision' | 'run';
const WALKING: Record<Phase, readonly string[]> = { decision: ['Recorded', 'Deciding'], run: ['Approved', 'Erasing'] };

export async function erasureStanding(deps: Pick<Dependencies, 'table'>, client: string, reference: string, phase: Phase): Promise<{ running: boolean; progress: string }> {
  const stored = await deps.table.get(erasureRequestKeys.key(client, reference), { consistent: true });
  if (stored === undefined) return { running: false, progress: '' };
  const request = readErasureRequest(stored);
  return { running: WALKING[phase].includes(request.erasure_state), progress: `${request.erasure_state}|${request.walk_step ?? 0}` };
}

export async function endStuckErasure(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, reference: string, phase: Phase, reason: string): Promise<boolean> {
  const stored = await deps.table.get(erasureRequestKeys.key(client, reference), { consistent: true });
  if (stored === undefined) return false;
  const request = readErasureRequest(stored);
  if (!WALKING[phase].includes(request.erasure_state)) return false;
  const ended = { erasure_state: 'Failed', error_message: `The ${phase} stopped: ${reason}`, completed_at: deps.clock.now().toISOString() };
  try {
    await deps.table.transactWrite([
      {
        kind: 'update',
        key: erasureRequestKeys.key(client, reference),
        update: { set: ended },
        condition: { kind: 'expression', expression: '#state = :state', names: { '#state': 'erasure_state' }, values: { ':state': request.erasure_state } },
      },
      endMarkerOperation(client, phase === 'decision' ? 'erasure-decision' : 'erasure-run', reference),
      // Given up, the request has ended: its retention marker (ErasureRequestData, from now) goes with it.
      ...dueMarkerPuts(client, { ...stored, ...ended }),
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
