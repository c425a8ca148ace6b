import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { externalIdOf } from '../../lambdas/transfers/delivery/customer-role.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * Transfer delivery to S3 assumes the customer's role: the transfer jobs function (which runs the `transfer` job) may,
 * and no other function may, the jobs function included.
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

/**
 * Any role, but never one in Verity's own account (a role there trusting the account without an ExternalId would be
 * anyone's for the naming), and only presenting a Verity ExternalId (`verity-<client>`, lambdas/transfers/delivery).
 */
const assumeRole = {
  Effect: 'Allow',
  Action: 'sts:AssumeRole',
  Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::*:role/*']] },
  Condition: {
    StringNotEquals: { 'aws:ResourceAccount': { Ref: 'AWS::AccountId' } },
    StringLike: { 'sts:ExternalId': 'verity-*' },
  },
};

/** Every IAM policy of the app whose statements allow sts:AssumeRole, as `<stack>/<policy id>` with its roles. */
function assumingPolicies(): Array<{ at: string; roles: unknown }> {
  const found: Array<{ at: string; roles: unknown }> = [];
  for (const [name, stack] of Object.entries(stacks)) {
    for (const [id, policy] of Object.entries(Template.fromStack(stack).findResources('AWS::IAM::Policy'))) {
      const statements = (policy.Properties.PolicyDocument.Statement ?? []) as Array<{ Action: string | string[] }>;
      if (statements.some((statement) => [statement.Action].flat().includes('sts:AssumeRole'))) found.push({ at: `${name}/${id}`, roles: policy.Properties.Roles });
    }
  }
  return found;
}

describe('transfer delivery role assumption', () => {
  it('lets the transfer jobs function assume a customer delivery role', () => {
    const transferJobsRole = stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.role.node.defaultChild as never);
    Template.fromStack(stacks.jobs).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: transferJobsRole }],
      PolicyDocument: { Statement: Match.arrayWith([assumeRole]) },
    });
  });

  it('refuses roles in Verity\'s own account and calls without a Verity ExternalId: the statement carries both conditions, exactly', () => {
    const statements = Object.values(Template.fromStack(stacks.jobs).findResources('AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Condition?: unknown }>)
      .filter((statement) => [statement.Action].flat().includes('sts:AssumeRole'));
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Condition).toEqual(assumeRole.Condition);
    // The prefix the condition allows is the one the delivery code presents.
    expect(externalIdOf('acme')).toMatch(/^verity-/);
  });

  it('lets no other function assume roles, the jobs function included', () => {
    const transferJobsRoles = JSON.stringify([{ Ref: stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.role.node.defaultChild as never) }]);
    const jobsRoles = JSON.stringify([{ Ref: stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.defaultChild as never) }]);
    const policies = assumingPolicies();
    expect(policies.filter((policy) => JSON.stringify(policy.roles) === jobsRoles)).toEqual([]);
    expect(policies.filter((policy) => !(policy.at.startsWith('jobs/') && JSON.stringify(policy.roles) === transferJobsRoles))).toEqual([]);
    expect(policies).toHaveLength(1);
  });
});
