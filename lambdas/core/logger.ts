/**
 * JSON logs, one object per line (CloudWatch and local terminals both read them). Never log tokens or bodies:
 * callers pass only what is safe.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Where lines go; stdout by default. Tests pass an array's push. */
export type LogSink = (line: string) => void;

const defaultSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`);
};

/** Serialises an Error with its cause chain; plain values pass through. */
function describe(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  return {
    name: value.name,
    message: value.message,
    stack: value.stack,
    ...(value.cause !== undefined && depth < 3 ? { cause: describe(value.cause, depth + 1) } : {}),
  };
}

export function createLogger(options: { level?: LogLevel; sink?: LogSink; base?: Record<string, unknown> } = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'info');
  const sink = options.sink ?? defaultSink;
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const entry: Record<string, unknown> = { level, time: new Date().toISOString(), message, ...options.base };
    for (const [key, value] of Object.entries(fields ?? {})) entry[key] = describe(value);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      // A circular or BigInt field must not turn a log call into a failed request.
      line = JSON.stringify({ level, time: entry.time, message, note: 'fields not serialisable' });
    }
    sink(line);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}
