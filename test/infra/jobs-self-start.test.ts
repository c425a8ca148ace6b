import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * Long jobs hand over to a fresh invocation of the jobs function before their time runs out (transfers, imports,
 * retention, hold and lock walks): the jobs function must know its own name and may invoke itself, and only itself.
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
