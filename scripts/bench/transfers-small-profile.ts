import type { Destination } from '../../lambdas/transfers/delivery/index.ts';
import type { DestinationOpener, TransferJobDependencies } from '../../lambdas/transfers/job/context.ts';
import { openDestination } from '../../lambdas/transfers/delivery/index.ts';
import { formatTable } from './measure.ts';

/**
 * Where the transfer job's time goes (`npm run bench -- transfers --small-only --profile`): every call it makes on the
 * table, the buckets, the key service and the destination, counted and timed per port method. Calls made at the same
 * time (files delivered several at once) each count their own time, so the sum can pass the run's.
 */
export interface TransferJobProfile {
  deps: TransferJobDependencies;
  openDestination: DestinationOpener;
  report(): string;
}

type Tally = { calls: number; ms: number };

export function profileTransferJob(deps: TransferJobDependencies): TransferJobProfile {
  const calls = new Map<string, Tally>();
  const began = performance.now();
  // The run's phases: until the first file is sent (claiming, selection), then until the last arrives.
  let firstPut: number | undefined;
  let lastPut = began;
  const timed = <P extends object>(port: string, target: P): P =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const key = `${port}.${String(name)}`;
          let entry = calls.get(key);
          if (entry === undefined) calls.set(key, (entry = { calls: 0, ms: 0 }));
          const tally = entry;
          const started = performance.now();
          if (key === 'destination.put') firstPut ??= started;
          const done = () => {
            tally.calls += 1;
            tally.ms += performance.now() - started;
            if (key === 'destination.put') lastPut = performance.now();
          };
          const result = (value as (...a: unknown[]) => unknown).apply(object, args);
          if (result instanceof Promise) return result.finally(done);
          done();
          return result;
        };
      },
    });
  return {
    deps: { ...deps, table: timed('table', deps.table), blobs: timed('blobs', deps.blobs), keys: timed('keys', deps.keys) },
    openDestination: async (config, secrets) => {
      const started = performance.now();
      const opened = await openDestination({ config: deps.config, logger: deps.logger }, config, secrets);
      calls.set('destination.open', { calls: 1, ms: performance.now() - started });
      return timed<Destination>('destination', opened);
    },
    report: () =>
      `until the first file was sent (claim, selection): ${(((firstPut ?? began) - began) / 1000).toFixed(1)} s; from it to the last arrival: ${((lastPut - (firstPut ?? began)) / 1000).toFixed(1)} s\n` +
      formatTable(
        ['port call', 'calls', 'total ms', 'ms per call'],
        [...calls.entries()].sort(([, a], [, b]) => b.ms - a.ms).map(([name, tally]) => [name, String(tally.calls), tally.ms.toFixed(0), (tally.ms / tally.calls).toFixed(1)]),
      ),
  };
}
