import { describe, expect, it } from 'vitest';
import type { JobRunner } from '../../ports/job-runner.ts';
import type { LambdaJobRunnerOptions } from '../aws/lambda-job-runner.ts';
import { createRoutedJobRunner, functionVariableOf, TRANSFER_FUNCTION_JOBS } from './job-runner.ts';

/** A Lambda runner factory that records which function each start invokes. */
function recordingLambda() {
  const invoked: Array<{ functionName: string; region: string; job: string; input: Record<string, unknown> }> = [];
  const made: string[] = [];
  const factory = (options: LambdaJobRunnerOptions): JobRunner => {
    made.push(options.functionName);
    return {
      async start(job, input) {
        invoked.push({ functionName: options.functionName, region: options.region, job, input });
      },
    };
  };
  return { invoked, made, factory };
}

const bothNames = { AWS_REGION: 'eu-west-2', JOBS_FUNCTION_NAME: 'verity-prod-jobs', TRANSFER_JOBS_FUNCTION_NAME: 'verity-prod-transfer-jobs' };

describe('routed job runner', () => {
  it('starts the transfer job on the transfer jobs function and every other job on the jobs function', async () => {
    const lambda = recordingLambda();
    const runner = createRoutedJobRunner(bothNames, lambda.factory);
    await runner.start('transfer', { client: 'acme', transfer_id: 't1', trigger: 'run' });
    await runner.start('payload-processing', { client: 'acme', payload_reference: 'p1' });
    await runner.start('migration-import', { client: 'acme' });
    await runner.start('transfer', { client: 'acme', transfer_id: 't1', lease_id: 'l2', trigger: 'continue' });
    expect(lambda.invoked.map(({ functionName, job }) => [job, functionName])).toEqual([
      ['transfer', 'verity-prod-transfer-jobs'],
      ['payload-processing', 'verity-prod-jobs'],
      ['migration-import', 'verity-prod-jobs'],
      ['transfer', 'verity-prod-transfer-jobs'],
    ]);
    expect(lambda.invoked[0]).toMatchObject({ region: 'eu-west-2', input: { client: 'acme', transfer_id: 't1', trigger: 'run' } });
    // One runner per function, built when first needed.
    expect(lambda.made).toEqual(['verity-prod-transfer-jobs', 'verity-prod-jobs']);
  });

  it('fails a start whose function is not named, naming the variable, and still starts on the one that is', async () => {
    const onlyTransfers = recordingLambda();
    const transfersApi = createRoutedJobRunner({ AWS_REGION: 'eu-west-2', TRANSFER_JOBS_FUNCTION_NAME: 'verity-prod-transfer-jobs' }, onlyTransfers.factory);
    await expect(transfersApi.start('payload-processing', {})).rejects.toThrow('Job runner not configured: JOBS_FUNCTION_NAME missing');
    await transfersApi.start('transfer', { client: 'acme' });
    expect(onlyTransfers.invoked.map((start) => start.functionName)).toEqual(['verity-prod-transfer-jobs']);

    const onlyJobs = recordingLambda();
    const deviceApi = createRoutedJobRunner({ AWS_REGION: 'eu-west-2', JOBS_FUNCTION_NAME: 'verity-prod-jobs' }, onlyJobs.factory);
    await expect(deviceApi.start('transfer', {})).rejects.toThrow('Job runner not configured: TRANSFER_JOBS_FUNCTION_NAME missing');
    await deviceApi.start('payload-processing', {});
    expect(onlyJobs.invoked.map((start) => start.functionName)).toEqual(['verity-prod-jobs']);
  });

  it('routes by the exact job name only', () => {
    expect(TRANSFER_FUNCTION_JOBS).toEqual(['transfer', 'production']);
    expect(functionVariableOf('transfer')).toBe('TRANSFER_JOBS_FUNCTION_NAME');
    for (const job of ['Transfer', 'transfers', 'transfer ', 'retention', 'constructor', '']) expect(functionVariableOf(job), job).toBe('JOBS_FUNCTION_NAME');
  });
});
