import type { Logger } from '../../logger.ts';

/**
 * The AWS SDK's logger, routed to ours. Without one the SDK writes to the console: for instance "An error was
 * encountered in a non-retryable streaming request." whenever processing aborts the upload of a payload that failed
 * its checks, an expected outcome that processing logs itself. Only the SDK's text is kept: what else it passes
 * (requests, clients) can be circular or hold secrets. Its debug and info lines are dropped, its warnings kept at
 * debug level. A logger must never throw: it runs inside the SDK's request path.
 */
export function sdkLogger(logger: Logger) {
  // Only strings and errors' messages: the SDK's other arguments can be circular (they must never be serialised).
  const words = (part: unknown) => (typeof part === 'string' ? [part] : part instanceof Error ? [part.message] : []);
  const text = (content: unknown[]) => `aws-sdk: ${content.flatMap(words).join(' ')}`;
  return {
    debug: (..._content: unknown[]) => undefined,
    info: (..._content: unknown[]) => undefined,
    warn: (...content: unknown[]) => logger.debug(text(content)),
    error: (...content: unknown[]) => logger.error(text(content)),
  };
}
