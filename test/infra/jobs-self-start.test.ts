import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * Long jobs hand over to a fresh invocation of their function before their time runs out (imports, retention, hold and
 * lock walks in the jobs function; transfers in the transfer jobs function): each must know its own name and may
 * invoke itself. The jobs function's job-sweep also resumes stuck transfers, so it may invoke the transfer jobs
 * function too, by name; the transfer jobs function invokes only itself.
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

  it('may invoke that function and the transfer jobs function (a resumed transfer) by name, nothing wider', () => {
    const resources = Template.fromStack(stacks.jobs).toJSON().Resources;
    const nameOf = (fn: { function: { node: { defaultChild: unknown } } }) => resources[stacks.jobs.getLogicalId(fn.function.node.defaultChild as never)].Properties.FunctionName as string;
    expect(invokedBy(resources, stacks.jobs.jobs!.role)).toEqual([functionArn(nameOf(stacks.jobs.jobs!)), functionArn(nameOf(stacks.jobs.transferJobs!))]);
  });
});

/** The ARN of a function of this stack by its fixed name, as the policies spell it. */
const functionArn = (name: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${name}`]],
});

/** Every function a role's default policy lets it invoke. */
function invokedBy(resources: Record<string, { Properties: Record<string, unknown> }>, role: { node: { findChild(id: string): { node: { defaultChild?: unknown } } } }): unknown[] {
  const policy = resources[stacks.jobs.getLogicalId(role.node.findChild('DefaultPolicy').node.defaultChild as never)];
  const statements = (policy!.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement;
  return statements.filter((statement) => [statement.Action].flat().includes('lambda:InvokeFunction')).flatMap((statement) => [statement.Resource].flat());
}

describe('the job-sweep resuming stuck long jobs', () => {
  it('runs every 5 minutes on the jobs function, as payload-sweep does', () => {
    const template = Template.fromStack(stacks.jobs);
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: 'job-sweep',
      ScheduleExpression: 'rate(5 minutes)',
      Target: { Arn: Match.anyValue(), RoleArn: Match.anyValue(), Input: JSON.stringify({ job: 'job-sweep', input: {} }) },
    });
  });

  it('gives the jobs function the transfer jobs function by name, so the sweep can start a resumed transfer there', () => {
    const resources = Template.fromStack(stacks.jobs).toJSON().Resources;
    const jobsFunction = resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never)].Properties;
    const transferName = resources[stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never)].Properties.FunctionName as string;
    expect(jobsFunction.Environment.Variables.TRANSFER_JOBS_FUNCTION_NAME).toBe(transferName);
    expect(invokedBy(resources, stacks.jobs.jobs!.role)).toContainEqual(functionArn(transferName));
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
    expect(invokes).toEqual([{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: functionArn(name) }]);
    expect(JSON.stringify(transferJobsPolicy)).not.toContain(`:function:${jobsName}`);
  });
});
