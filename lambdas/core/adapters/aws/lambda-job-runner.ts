import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import type { JobRunner } from '../../ports/job-runner.ts';

/**
 * JobRunner on Lambda: an asynchronous (`Event`) invoke of one job function (the jobs function, or the transfer jobs
 * function: wiring/job-runner.ts picks it by job) with `{ job, input }`. Lambda queues it, answers 202 at once, and
 * retries a failed run twice on its own.
 *
 * The invoke is one signed HTTP request (Lambda's `Invoke` API), signed with the SDK's own SigV4 signer and default
 * credential chain and sent with the runtime's `fetch`. Every function already holds those parts for DynamoDB; the
 * Lambda client would add 73 KB to each function that starts jobs, for this one call (docs/decisions.md, "Lambda
 * bundles").
 */
export interface LambdaJobRunnerOptions {
  functionName: string;
  region: string;
  /** Where Lambda's API answers; the regional endpoint unless given (tests point it at loopback). */
  endpoint?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Attempts for a throttled, failing or unreachable Lambda API, as the SDK's standard retry makes. */
  maxAttempts?: number;
  /** Base of the jittered back-off between attempts, in milliseconds. */
  backoffMs?: number;
}

/** A refusal Lambda's API answers, with its error type (e.g. `TooManyRequestsException`) as `name`. */
export class LambdaInvokeError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = type;
  }
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

export function createLambdaJobRunner(options: LambdaJobRunnerOptions): JobRunner {
  const endpoint = new URL(options.endpoint ?? `https://lambda.${options.region}.amazonaws.com`);
  const signer = new SignatureV4({ credentials: options.credentials ?? defaultProvider(), region: options.region, service: 'lambda', sha256: Sha256 });
  const maxAttempts = options.maxAttempts ?? 3;
  const backoffMs = options.backoffMs ?? 100;
  const path = `/2015-03-31/functions/${encodeURIComponent(options.functionName)}/invocations`;

  async function invokeOnce(job: string, body: string): Promise<void> {
    const request = new HttpRequest({
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port === '' ? {} : { port: Number(endpoint.port) }),
      path,
      headers: { host: endpoint.host, 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body,
    });
    const signed = await signer.sign(request);
    const response = await fetch(new URL(path, endpoint), { method: 'POST', headers: signed.headers, body });
    const text = await response.text();
    if (response.status === 202) return;
    if (response.ok) throw new Error(`${options.functionName} did not accept job ${job} (status ${String(response.status)})`);
    throw refusal(response, text);
  }

  return {
    async start(job, input) {
      const body = JSON.stringify({ job, input });
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await invokeOnce(job, body);
        } catch (error) {
          if (attempt >= maxAttempts || !isRetried(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2)));
        }
      }
    },
  };
}

/** Lambda names the error in `x-amzn-errortype` (`Type:location` at times) and explains it in the JSON body. */
function refusal(response: Response, text: string): LambdaInvokeError {
  const type = (response.headers.get('x-amzn-errortype') ?? '').split(':')[0] || `HTTP${String(response.status)}`;
  let message = text;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; Message?: unknown };
    const said = parsed.message ?? parsed.Message;
    if (typeof said === 'string') message = said;
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return new LambdaInvokeError(type, message || `Lambda refused the invoke (status ${String(response.status)})`, response.status);
}

/** Throttling, a server-side failure, or no answer at all (fetch rejects with a TypeError) may pass on a retry. */
function isRetried(error: unknown): boolean {
  if (error instanceof LambdaInvokeError) return RETRIED_STATUSES.has(error.status);
  return error instanceof TypeError;
}
