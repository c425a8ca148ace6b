import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * Long jobs hand over to a fresh invocation of their function before their time runs out (imports, retention, hold and
 * lock walks in the jobs function; transfers in the transfer jobs function): each must know its own name and may
 * invoke itself, and only itself.
 */
let stacks: VerityStacks;
let cleanup: () => void = () => {};
afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({
    endpoints: ENDPOINTS,
    resolveEntry: (folder) => handlerEntry(folder) ?? (folder === 'jobs' ? NOT_BUILT_HANDLER : undefined),
  }));
});

describe('the jobs function starting its own continuations', () => {
  it('has a fixed name, given to it as JOBS_FUNCTION_NAME', () => {
    const template = Template.fromStack(stacks.jobs);
    const jobsFunction = stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never);
    const properties = template.toJSON().Resources[jobsFunction].Properties;
    expect(properties.FunctionName).toMatch(/^verity-[a-z0-9-]+-jobs$/);
    expect(properties.Environment.Variables.JOBS_FUNCTION_NAME).toBe(properties.FunctionName);
  });

  it('may invoke that function by name, nothing wider', () => {
    const template = Template.fromStack(stacks.jobs);
    const jobsFunction = stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never);
    const name = template.toJSON().Resources[jobsFunction].Properties.FunctionName as string;
    const jobsRole = stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.defaultChild as never);
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: jobsRole }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Action: 'lambda:InvokeFunction',
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${name}`]],
            },
          },
        ]),
      },
    });
  });
});

describe('the job-sweep resuming stuck long jobs', () => {
  it('runs every 5 minutes on the jobs function, as payload-sweep does', () => {
    const template = Template.fromStack(stacks.jobs);
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: 'job-sweep',
      ScheduleExpression: 'rate(5 minutes)',
      Target: { Arn: Match.anyValue(), RoleArn: Match.anyValue(), Input: JSON.stringify({ job: 'job-sweep', input: {} }) },
    });
  });

  it('lets the jobs function start a transfer (a resumed one) on the transfer jobs function, by name', () => {
    const template = Template.fromStack(stacks.jobs);
    const resources = template.toJSON().Resources;
    const jobsFunction = resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never)].Properties;
    const transferName = resources[stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never)].Properties.FunctionName as string;
    expect(jobsFunction.Environment.Variables.TRANSFER_JOBS_FUNCTION_NAME).toBe(transferName);
    const jobsRole = stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.defaultChild as never);
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: jobsRole }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Action: 'lambda:InvokeFunction',
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${transferName}`]],
            },
          },
        ]),
      },
    });
  });
});

describe('the transfer jobs function handing a transfer over', () => {
  it('has a fixed name, given to it as TRANSFER_JOBS_FUNCTION_NAME (and no jobs function name)', () => {
    const template = Template.fromStack(stacks.jobs);
    const transferJobsFunction = stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never);
    const properties = template.toJSON().Resources[transferJobsFunction].Properties;
    expect(properties.FunctionName).toMatch(/^verity-[a-z0-9-]+-transfer-jobs$/);
    expect(properties.Environment.Variables.TRANSFER_JOBS_FUNCTION_NAME).toBe(properties.FunctionName);
    expect(properties.Environment.Variables.JOBS_FUNCTION_NAME).toBeUndefined();
  });

  it('may invoke itself by name, and not the jobs function', () => {
    const template = Template.fromStack(stacks.jobs);
    const resources = template.toJSON().Resources;
    const name = resources[stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never)].Properties.FunctionName as string;
    const jobsName = resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never)].Properties.FunctionName as string;
    const transferJobsPolicy = resources[stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.role.node.findChild('DefaultPolicy').node.defaultChild as never)];
    const invokes = (transferJobsPolicy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).filter((statement) =>
      [statement.Action].flat().includes('lambda:InvokeFunction'),
    );
    expect(invokes).toEqual([
      {
        Effect: 'Allow',
        Action: 'lambda:InvokeFunction',
        Resource: {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${name}`]],
        },
      },
    ]);
    // And the jobs function no longer invokes the transfer jobs function: it starts no transfer.
    const jobsPolicy = JSON.stringify(resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(jobsPolicy).toContain(`:function:${jobsName}`);
    expect(jobsPolicy).not.toContain(`:function:${name}`);
  });
});
