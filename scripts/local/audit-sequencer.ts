import type { Dependencies } from '#core/dependencies.ts';
import { allClients } from '#core/store/all-clients.ts';
import { linkTrails } from '../../lambdas/jobs/audit-sequencer.ts';

export interface LocalAuditSequencer {
  /** Stops polling; resolves once a pass under way has finished. */
  stop(): Promise<void>;
}

/**
 * The local stand-in for the DynamoDB Streams trigger of the audit sequencer: every `intervalMs` (a second, as the
 * trigger's batching window in AWS) it runs the same `linkTrails` the stream batches run, for every tenant (and
 * `admin`). An idle trail costs one Query of its pending index; under load a pass links full batches of 49, so
 * DynamoDB Local sees few large transactions rather than many small ones beside the calls. Passes never overlap; a failed pass is logged and the next one tries again, as a stream retries.
 * The checkpoints come from the `audit-sequencer` schedule (scripts/local/jobs.ts), as in AWS.
 */
export function startLocalAuditSequencer(options: {
  dependencies: () => Dependencies;
  intervalMs?: number;
  log?: (line: string) => void;
}): LocalAuditSequencer {
  const interval = options.intervalMs ?? 1_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    const deps = options.dependencies();
    const clients = new Set<string>(['admin']);
    for await (const client of allClients(deps.table)) clients.add(client);
    for (const client of clients) {
      if (stopped) return;
      await linkTrails(deps, client);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => options.log?.(`audit sequencer: ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, interval);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
