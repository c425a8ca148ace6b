import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { Email } from '#shared/contract/fields.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../local/dynamodb.ts';
import { explainAwsError, ProvisioningError, type StageResources } from './stage-resources.ts';
import type { Step } from './provision.ts';

/** What the provisioning commands (tenant.ts, staff.ts) share: flags, AWS clients, error and outcome printing. */

/** Bad arguments: printed with the usage text. */
export class UsageError extends ProvisioningError {
  override name = 'UsageError';
}

export interface Io {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The flags every provisioning command takes, as the usage texts describe them. */
export const COMMON_OPTIONS = {
  stage: { type: 'string' },
  region: { type: 'string' },
  table: { type: 'string' },
  'user-pool': { type: 'string' },
  endpoint: { type: 'string' },
  'print-password': { type: 'boolean' },
  'first-name': { type: 'string' },
  surname: { type: 'string' },
  help: { type: 'boolean' },
} as const;

export const COMMON_USAGE = `Where (default: read from the stage's CloudFormation stack outputs):
  --stage <name>        the stage in cdk.json (default dev): stacks verity-<stage>-data and verity-<stage>-auth
  --region <region>     the stage's region (default AWS_REGION or the profile's)
  --table <name>        the table name instead of the data stack's TableName output
  --user-pool <id>      the user pool id instead of the auth stack's output
  --endpoint <url>      a DynamoDB endpoint (DynamoDB Local) instead of AWS's
The user:
  --print-password      make the temporary password and print it, instead of Cognito e-mailing it
  --first-name, --surname   stored on the portal user item
Credentials are the usual AWS ones (AWS_PROFILE, aws sso login, or access keys). Running a command twice changes
nothing the second time and says so.`;

type Options = Record<string, { type: 'string' } | { type: 'boolean' }>;

/** Parses the common flags and the command's own (`extra`); a usage problem is a UsageError. */
export function parseCommand<const Extra extends Options>(argv: readonly string[], extra: Extra) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { ...COMMON_OPTIONS, ...extra } });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The e-mail as Cognito stores it (sign-in is case-insensitive); refused when the contract's Email refuses it. */
export function emailOf(value: string | undefined): string {
  const email = (value ?? '').trim().toLowerCase();
  const parsed = Email.safeParse(email);
  if (!parsed.success) throw new UsageError(`Not an e-mail address: ${JSON.stringify((value ?? '').slice(0, 80))}`);
  return parsed.data;
}

/** An optional field checked with its contract schema. */
export function optionalField<T>(schema: z.ZodType<T>, flag: string, value: string | undefined): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export interface AwsClients {
  cloudFormation: CloudFormationClient;
  cognito: CognitoIdentityProviderClient;
  /** Built once the table's place is known (`--endpoint` or AWS). */
  documents: DynamoDBDocumentClient;
  destroy(): void;
}

/** The SDK clients for the flags: one region for all; DynamoDB Local (`--endpoint`) with its fixed local credentials. */
export function awsClients(values: { region?: string; endpoint?: string }, env: Io['env']): AwsClients {
  const region = values.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const regional = region === undefined ? {} : { region };
  const cloudFormation = new CloudFormationClient(regional);
  const cognito = new CognitoIdentityProviderClient(regional);
  const dynamo =
    values.endpoint === undefined
      ? new DynamoDBClient(regional)
      : new DynamoDBClient({ endpoint: values.endpoint, region: region ?? LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const documents = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  return {
    cloudFormation,
    cognito,
    documents,
    destroy() {
      cloudFormation.destroy();
      cognito.destroy();
      dynamo.destroy();
    },
  };
}

/** Prints where the command writes, each step's outcome, and the summary line. */
export function report(io: Io, heading: string, where: StageResources, steps: readonly Step[]): void {
  io.out(`${heading} (table ${where.tableName}, user pool ${where.userPoolId})`);
  for (const step of steps) io.out(`  ${step.what}: ${step.changed ? (step.verb ?? 'created') : 'already there'}${step.note === undefined ? '' : ` (${step.note})`}`);
  const changes = steps.filter((step) => step.changed).length;
  io.out(changes === 0 ? 'Nothing changed: everything was already there.' : `Done: ${changes} change${changes === 1 ? '' : 's'}.`);
}

/**
 * Runs a command body: 0 when it finished, 1 when AWS or the operator's setup refused (one line saying why), 2 on
 * a usage problem. Unknown errors are printed whole: they are bugs or outages, and their detail matters.
 */
export async function runCommand(io: Io, usage: string, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (raw) {
    const error = explainAwsError(raw);
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${usage.split('\n')[0] ?? ''}\n(--help says more)`);
      return 2;
    }
    if (error instanceof ProvisioningError) {
      io.err(error.message);
      return 1;
    }
    io.err(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
