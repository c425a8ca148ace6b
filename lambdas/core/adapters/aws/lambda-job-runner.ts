import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { JobRunner } from '../../ports/job-runner.ts';

/**
 * JobRunner on Lambda: an asynchronous (`Event`) invoke of the jobs function with `{ job, input }`. Lambda queues it,
 * answers 202 at once, and retries a failed run twice on its own.
 */
export function createLambdaJobRunner(lambda: LambdaClient, functionName: string): JobRunner {
  return {
    async start(job, input) {
      const answer = await lambda.send(
        new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify({ job, input })) }),
      );
      if (answer.StatusCode !== 202) throw new Error(`The jobs function did not accept job ${job} (status ${String(answer.StatusCode)})`);
    },
  };
}
