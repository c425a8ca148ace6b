import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { STACK_OUTPUTS, stackNameOf, type StackOutputName } from '../../lib/config/stack-outputs.ts';

/**
 * Where a deployed stage keeps what the provisioning commands write to: given as flags, or read from the stage's
 * CloudFormation stack outputs (lib/config/stack-outputs.ts names them).
 */

/** A failure the operator can act on: printed as it is, without a stack trace. */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}

export interface ResourceFlags {
  stage: string;
  /** The table name (`--table`), else the data stack's output. */
  table?: string;
  /** The user pool id (`--user-pool`), else the auth stack's output. */
  userPool?: string;
}

export interface StageResources {
  tableName: string;
  userPoolId: string;
}

/** The stack outputs of `stackName`, by output key; a clear error when the stack is not there. */
async function outputsOf(cloudFormation: CloudFormationClient, stackName: string): Promise<Map<string, string>> {
  let stacks;
  try {
    ({ Stacks: stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName })));
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message)) {
      throw new ProvisioningError(`Stack ${stackName} does not exist in this account and region: deploy the stage first, or check --stage and AWS_REGION.`);
    }
    throw error;
  }
  const outputs = new Map<string, string>();
  for (const output of stacks?.[0]?.Outputs ?? []) {
    if (output.OutputKey !== undefined && output.OutputValue !== undefined) outputs.set(output.OutputKey, output.OutputValue);
  }
  return outputs;
}

/**
 * The table name and the user pool id (`pool`: which of the two pools) for a stage. Flags win; CloudFormation is
 * asked only for what the flags leave out.
 */
export async function resolveStageResources(
  cloudFormation: CloudFormationClient,
  flags: ResourceFlags,
  pool: Extract<StackOutputName, 'staffUserPoolId' | 'tenantUserPoolId'>,
): Promise<StageResources> {
  const read = async (name: StackOutputName, given: string | undefined): Promise<string> => {
    if (given !== undefined) return given;
    const { stack, output } = STACK_OUTPUTS[name];
    const stackName = stackNameOf(flags.stage, stack);
    const value = (await outputsOf(cloudFormation, stackName)).get(output);
    if (value === undefined) {
      throw new ProvisioningError(`Stack ${stackName} has no output ${output}: redeploy it with this version (npx cdk deploy --all -c stage=${flags.stage}).`);
    }
    return value;
  };
  return { tableName: await read('tableName', flags.table), userPoolId: await read(pool, flags.userPool) };
}

/**
 * Turns the SDK's errors about the operator's own setup (no credentials, no region, expired or refused credentials)
 * into one line saying what to do; anything else is returned unchanged.
 */
export function explainAwsError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.name === 'CredentialsProviderError' || /Could not load credentials/i.test(error.message)) {
    return new ProvisioningError(
      'No AWS credentials: sign in first (e.g. `aws sso login --profile <profile>` and AWS_PROFILE=<profile>, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).',
    );
  }
  if (/Region is missing/i.test(error.message)) return new ProvisioningError('No AWS region: pass --region or set AWS_REGION.');
  if (['ExpiredToken', 'ExpiredTokenException', 'UnrecognizedClientException', 'InvalidClientTokenId'].includes(error.name)) {
    return new ProvisioningError(`AWS refused the credentials (${error.name}): sign in again.`);
  }
  if (error.name === 'AccessDeniedException' || error.name === 'AccessDenied') {
    return new ProvisioningError(`AWS refused the call: ${error.message}`);
  }
  return error;
}
