import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/** Transfer delivery to S3 assumes the customer's role: the jobs function may, and no other function may. */
let stacks: VerityStacks;
let cleanup: () => void = () => {};
afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({
    endpoints: ENDPOINTS,
    resolveEntry: (folder) => handlerEntry(folder) ?? (folder === 'jobs' ? NOT_BUILT_HANDLER : undefined),
  }));
});

const assumeRole = { Effect: 'Allow', Action: 'sts:AssumeRole', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::*:role/*']] } };

describe('transfer delivery role assumption', () => {
  it('lets the jobs function assume a customer delivery role', () => {
    const jobsRole = stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.defaultChild as never);
    Template.fromStack(stacks.jobs).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: jobsRole }],
      PolicyDocument: { Statement: Match.arrayWith([assumeRole]) },
    });
  });

  it('lets no other function assume roles', () => {
    const jobsRole = stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.defaultChild as never);
    const granted: string[] = [];
    for (const [name, stack] of Object.entries(stacks)) {
      for (const [id, policy] of Object.entries(Template.fromStack(stack).findResources('AWS::IAM::Policy'))) {
        const statements = (policy.Properties.PolicyDocument.Statement ?? []) as Array<{ Action: string | string[] }>;
        const assumes = statements.some((statement) => [statement.Action].flat().includes('sts:AssumeRole'));
        const ofJobs = name === 'jobs' && JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: jobsRole }]);
        if (assumes && !ofJobs) granted.push(`${name}/${id}`);
      }
    }
    expect(granted).toEqual([]);
  });
});
