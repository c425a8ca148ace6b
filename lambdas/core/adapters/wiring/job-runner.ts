import type { Config } from '../../config.ts';
import type { PortAdapter } from '../../dependencies.ts';
import type { JobRunner } from '../../ports/job-runner.ts';
import { createLambdaJobRunner, type LambdaJobRunnerOptions } from '../aws/lambda-job-runner.ts';
import { createLocalJobRunner } from '../local/local-job-runner.ts';

/**
 * The jobs that run in the transfer jobs function (lambdas/transfer-jobs/handler.ts); every other job runs in the jobs
 * function (lambdas/jobs/handler.ts). The transfer job bundles packaging and delivery (openpgp, ssh2, zip.js) that no
 * other job needs, so it has a function of its own. Core names the jobs rather than importing the area's table (core
 * imports no area); the transfer jobs function's test keeps this list and its table equal.
 */
export const TRANSFER_FUNCTION_JOBS: readonly string[] = ['transfer', 'production'];

/** The variable naming each job function, as the CDK sets it on a function that may start jobs there. */
type FunctionVariable = 'JOBS_FUNCTION_NAME' | 'TRANSFER_JOBS_FUNCTION_NAME';

/** The variable naming the function that runs `job`. */
export function functionVariableOf(job: string): FunctionVariable {
  return TRANSFER_FUNCTION_JOBS.includes(job) ? 'TRANSFER_JOBS_FUNCTION_NAME' : 'JOBS_FUNCTION_NAME';
}

/**
 * Starting a job in AWS: Lambda's asynchronous invoke of the function that runs it, the transfer jobs function for
 * `transfer` and the jobs function for every other job. Each needs its function's name; without it a start fails,
 * naming the variable (a function is given only the names of the functions it may start).
 */
export function createRoutedJobRunner(
  config: Pick<Config, FunctionVariable | 'AWS_REGION'>,
  lambdaRunner: (options: LambdaJobRunnerOptions) => JobRunner = createLambdaJobRunner,
): JobRunner {
  const runners = new Map<FunctionVariable, JobRunner>();
  const runnerFor = (variable: FunctionVariable): JobRunner => {
    let runner = runners.get(variable);
    if (runner === undefined) {
      const functionName = config[variable];
      runner = functionName
        ? lambdaRunner({ functionName, region: config.AWS_REGION })
        : { start: () => Promise.reject(new Error(`Job runner not configured: ${variable} missing`)) };
      runners.set(variable, runner);
    }
    return runner;
  };
  return { start: (job, input) => runnerFor(functionVariableOf(job)).start(job, input) };
}

/** Starting a job now: Lambda's asynchronous invoke in AWS (routed by job), the local stack's jobs handler in this process locally. */
export const jobRunnerAdapter: PortAdapter<'jobs'> = {
  port: 'jobs',
  build: ({ config, logger }) => (config.VERITY_MODE === 'local' ? createLocalJobRunner(logger) : createRoutedJobRunner(config)),
};
