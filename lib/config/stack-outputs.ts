/**
 * The stack outputs operators' commands read (`scripts/admin/`): where a deployed stage keeps its table and user
 * pools. Plain data, no CDK import, so a command can use it without loading the CDK app.
 */
export const STACK_OUTPUTS = {
  /** The records table (data stack). */
  tableName: { stack: 'data', output: 'TableName' },
  /** The provider staff's Cognito user pool (auth stack). */
  staffUserPoolId: { stack: 'auth', output: 'StaffUserPoolId' },
  /** The tenant users' Cognito user pool (auth stack). */
  tenantUserPoolId: { stack: 'auth', output: 'TenantUserPoolId' },
} as const;

export type StackOutputName = keyof typeof STACK_OUTPUTS;

/** A stage's stack name: `verity-<stage>-<part>` (lib/verity-app.ts builds the stacks under these names). */
export function stackNameOf(stage: string, part: string): string {
  return `verity-${stage}-${part}`;
}
