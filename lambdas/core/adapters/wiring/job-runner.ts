import type { PortAdapter } from '../../dependencies.ts';
import { createLambdaJobRunner } from '../aws/lambda-job-runner.ts';
import { createLocalJobRunner } from '../local/local-job-runner.ts';

/**
 * Starting a job now: Lambda's asynchronous invoke of the jobs function in AWS, the local stack's jobs handler in
 * this process locally. Lambda's invoke needs the jobs function's name; without it a start fails, naming the variable.
 */
export const jobRunnerAdapter: PortAdapter<'jobs'> = {
  port: 'jobs',
  build: ({ config, logger }) => {
    if (config.VERITY_MODE === 'local') return createLocalJobRunner(logger);
    if (config.JOBS_FUNCTION_NAME) return createLambdaJobRunner({ functionName: config.JOBS_FUNCTION_NAME, region: config.AWS_REGION });
    return { start: () => Promise.reject(new Error('Job runner not configured: JOBS_FUNCTION_NAME missing')) };
  },
};
