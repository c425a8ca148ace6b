import type { Config } from './config.ts';
import type { Logger, LogSink } from './logger.ts';
import { roundedCapacity, type CapacityTotals } from './ports/capacity-meter.ts';

/** The CloudWatch namespace of the capacity metrics. */
export const CAPACITY_NAMESPACE = 'Verity/Capacity';

/** What the capacity was spent on: one endpoint's request, or one job's invocation. */
export type CapacitySubject = { endpoint: string } | { job: string };

const stdoutSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`);
};

/**
 * A CloudWatch embedded metric format line: Lambda's log stream turns it into the metrics ReadCapacityUnits,
 * WriteCapacityUnits, ItemsRead and ItemsWritten by Endpoint or by Job, with no API call and nothing to fail.
 */
export function capacityMetricLine(subject: CapacitySubject, totals: CapacityTotals, now: Date): string {
  const dimension = 'endpoint' in subject ? 'Endpoint' : 'Job';
  const rounded = roundedCapacity(totals);
  return JSON.stringify({
    _aws: {
      Timestamp: now.getTime(),
      CloudWatchMetrics: [
        {
          Namespace: CAPACITY_NAMESPACE,
          Dimensions: [[dimension]],
          Metrics: [
            { Name: 'ReadCapacityUnits', Unit: 'Count' },
            { Name: 'WriteCapacityUnits', Unit: 'Count' },
            { Name: 'ItemsRead', Unit: 'Count' },
            { Name: 'ItemsWritten', Unit: 'Count' },
          ],
        },
      ],
    },
    [dimension]: 'endpoint' in subject ? subject.endpoint : subject.job,
    ReadCapacityUnits: rounded.readUnits,
    WriteCapacityUnits: rounded.writeUnits,
    ItemsRead: rounded.itemsRead,
    ItemsWritten: rounded.itemsWritten,
  });
}

/**
 * Reports what one request or job invocation consumed: a debug log line everywhere (`LOG_LEVEL=debug` shows it), and
 * in AWS an EMF metric line, so the cost per endpoint and per job can be graphed and alarmed on.
 */
export function reportCapacity(
  deps: { config: Pick<Config, 'VERITY_MODE'>; logger: Logger },
  subject: CapacitySubject,
  totals: CapacityTotals,
  options: { requestId?: string; route?: CapacityTotals; metricSink?: LogSink; now?: Date } = {},
): void {
  const rounded = roundedCapacity(totals);
  const route = options.route === undefined ? undefined : roundedCapacity(options.route);
  deps.logger.debug('capacity', {
    ...subject,
    ...(options.requestId === undefined ? {} : { request_id: options.requestId }),
    read_units: rounded.readUnits,
    write_units: rounded.writeUnits,
    items_read: rounded.itemsRead,
    bytes_read: rounded.bytesRead,
    items_written: rounded.itemsWritten,
    bytes_written: rounded.bytesWritten,
    calls: rounded.calls,
    failed_calls: rounded.failedCalls,
    // The endpoint's own part; the rest is the pipeline's (who is calling, may they, the activity record).
    ...(route === undefined ? {} : { route_read_units: route.readUnits, route_write_units: route.writeUnits }),
  });
  if (deps.config.VERITY_MODE === 'aws') (options.metricSink ?? stdoutSink)(capacityMetricLine(subject, totals, options.now ?? new Date()));
}
