import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLambdaJobRunner } from './lambda-job-runner.ts';

const client = mockClient(LambdaClient);
const runner = createLambdaJobRunner(new LambdaClient({ region: 'eu-west-2' }), 'verity-prod-jobs');

beforeEach(() => client.reset());

describe('Lambda job runner', () => {
  it('invokes the jobs function asynchronously with the job event a schedule would send', async () => {
    client.on(InvokeCommand).resolves({ StatusCode: 202 });
    await runner.start('payload-processing', { client: 'acme', payload_reference: '01J0000000000000000000REF1' });
    const input = client.commandCalls(InvokeCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ FunctionName: 'verity-prod-jobs', InvocationType: 'Event' });
    expect(JSON.parse(new TextDecoder().decode(input?.Payload as Uint8Array))).toEqual({
      job: 'payload-processing',
      input: { client: 'acme', payload_reference: '01J0000000000000000000REF1' },
    });
  });

  it('fails when Lambda does not accept the event, or refuses the call', async () => {
    client.on(InvokeCommand).resolvesOnce({ StatusCode: 200 }).rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));
    await expect(runner.start('payload-processing', {})).rejects.toThrow('did not accept job payload-processing (status 200)');
    await expect(runner.start('payload-processing', {})).rejects.toThrow('Rate exceeded');
  });
});
