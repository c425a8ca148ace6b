import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '#shared/permissions/staff-roles.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { FIXTURE_ENDPOINTS } from './fixtures.ts';
import { synthApp } from './synth.ts';

/** The staff roles (shared/permissions/staff-roles.ts) exist as groups of the staff pool, so Cognito's claim names them. */
let auth: Template;
let stacks: VerityStacks;
let cleanup: (() => void) | undefined;

beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ endpoints: FIXTURE_ENDPOINTS }));
  auth = Template.fromStack(stacks.auth);
});
afterAll(() => cleanup?.());

describe('staff groups', () => {
  it('declares one group per staff role in the staff pool, none in the tenants pool', () => {
    const groups = Object.values(auth.findResources('AWS::Cognito::UserPoolGroup'));
    expect(groups.map((group) => group.Properties.GroupName).sort()).toEqual(Object.keys(STAFF_ROLES).sort());
    const pools = auth.findResources('AWS::Cognito::UserPool');
    const staffPool = Object.entries(pools).find(([, pool]) => String(pool.Properties.UserPoolName).endsWith('-staff'))?.[0];
    for (const group of groups) expect(group.Properties.UserPoolId).toEqual({ Ref: staffPool });
  });
});
