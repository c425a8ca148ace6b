import type { Logger } from '../../logger.ts';

/** What the SDK's logger middleware passes when a command fails: the error is also thrown to the caller. */
interface CommandFailure {
  clientName?: unknown;
  commandName: string;
  error: unknown;
}

const isCommandFailure = (part: unknown): part is CommandFailure =>
  typeof part === 'object' && part !== null && typeof (part as { commandName?: unknown }).commandName === 'string' && 'error' in part;

/**
 * The AWS SDK's logger, routed to ours. Without one the SDK writes to the console: for instance "An error was
 * encountered in a non-retryable streaming request." whenever processing aborts the upload of a payload that failed
 * its checks, an expected outcome that processing logs itself. Only the SDK's text is kept: what else it passes
 * (requests, clients) can be circular or hold secrets. Its debug and info lines are dropped, its warnings kept at
 * debug level. A failed command (the SDK's logger middleware passes `{ clientName, commandName, input, error }`) is
 * thrown to our code as well, which decides whether it is a failure (a HeadObject's NotFound is an answer): it is
 * kept at debug level, named by its command and error, never as an error line with no words. A logger must never
 * throw: it runs inside the SDK's request path.
 */
export function sdkLogger(logger: Logger) {
  // Only strings and errors' messages: the SDK's other arguments can be circular (they must never be serialised).
  const words = (part: unknown) => (typeof part === 'string' ? [part] : part instanceof Error ? [part.message] : []);
  const text = (content: unknown[]) => `aws-sdk: ${content.flatMap(words).join(' ')}`;
  const failureText = (failure: CommandFailure) => {
    const error = failure.error instanceof Error ? `${failure.error.name}: ${failure.error.message}` : 'failed';
    const client = typeof failure.clientName === 'string' ? `${failure.clientName} ` : '';
    return `aws-sdk: ${client}${failure.commandName} ${error}`;
  };
  return {
    debug: (..._content: unknown[]) => undefined,
    info: (..._content: unknown[]) => undefined,
    warn: (...content: unknown[]) => logger.debug(text(content)),
    error: (...content: unknown[]) => {
      const failure = content.find(isCommandFailure);
      if (failure !== undefined) logger.debug(failureText(failure));
      else logger.error(text(content));
    },
  };
}
