import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_OUTPUTS, stackNameOf } from '../../lib/config/stack-outputs.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { FIXTURE_ENDPOINTS } from './fixtures.ts';
import { synthApp } from './synth.ts';

/** The outputs the provisioning commands (scripts/admin/) read: in the stacks they name, pointing at the right resource. */
let stacks: VerityStacks;
let cleanup: (() => void) | undefined;

beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ endpoints: FIXTURE_ENDPOINTS }));
});
afterAll(() => cleanup?.());

/** The stacks every stage has (the edge and second-copy stacks are optional, and no output the commands read lives there). */
type AlwaysPresent = Exclude<keyof VerityStacks, 'edge' | 'replicationKey' | 'replica'>;
const outputValue = (part: AlwaysPresent, output: string) => Template.fromStack(stacks[part]).findOutputs(output)[output]?.Value;
const logicalId = (part: AlwaysPresent, construct: { node: { defaultChild?: unknown } }) =>
  stacks[part].getLogicalId(construct.node.defaultChild as never);

describe('stack outputs for the provisioning commands', () => {
  it('names the stacks as stackNameOf does', () => {
    for (const { stack } of Object.values(STACK_OUTPUTS)) expect(stacks[stack].stackName).toBe(stackNameOf('dev', stack));
  });

  it('outputs the table name and both user pool ids', () => {
    expect(outputValue('data', STACK_OUTPUTS.tableName.output)).toEqual({ Ref: logicalId('data', stacks.data.table) });
    expect(outputValue('auth', STACK_OUTPUTS.staffUserPoolId.output)).toEqual({ Ref: logicalId('auth', stacks.auth.staff.userPool) });
    expect(outputValue('auth', STACK_OUTPUTS.tenantUserPoolId.output)).toEqual({ Ref: logicalId('auth', stacks.auth.tenants.userPool) });
  });
});
