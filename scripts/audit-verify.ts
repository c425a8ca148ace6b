import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ClientId } from '#shared/contract/fields.ts';
import { createDynamoTableStore } from '#core/adapters/aws/dynamodb-table-store.ts';
import { verifyChain, type ChainVerdict } from '#core/audit/verify-chain.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamo } from './local/dynamodb.ts';

const USAGE = `Usage: npm run audit:verify -- <client> [--endpoint <dynamodb url>] [--table <name>] [--data-dir <dir>]

Verifies the hash chain of a tenant's user activity and names the first broken record.
Where the table is:
  --endpoint or DYNAMODB_ENDPOINT   a running DynamoDB (Local), e.g. the one npm start runs;
  TABLE_NAME without an endpoint    the AWS table, with the usual AWS credentials and AWS_REGION;
  otherwise                         the local stack's data (--data-dir, default .data/): the script starts its own
                                    DynamoDB Local on it, so npm start need not be running.`;

export interface Io {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The one line the script prints for a verdict. */
export function describeVerdict(client: string, verdict: ChainVerdict): string {
  return verdict.whole
    ? `Audit chain of ${client} is whole: ${verdict.count} records`
    : `Audit chain of ${client} is broken at record #${verdict.brokenAt}: ${verdict.reason}: ${verdict.detail}`;
}

interface Table {
  documents: DynamoDBDocumentClient;
  tableName: string;
  close(): Promise<void>;
}

/** The repository root (this file is `scripts/audit-verify.ts`). */
const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The local stack's names, loaded only when needed: the module pulls in the whole stack (OIDC provider, S3). */
const localStackNames = () => import('./local/stack.ts');

const documentsOf = (dynamo: DynamoDBClient) => DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });

/** Connects to the table the options and environment name; see USAGE for the order. */
async function openTable(values: { endpoint?: string; table?: string; 'data-dir'?: string }, env: Io['env']): Promise<Table> {
  const endpoint = values.endpoint ?? env.DYNAMODB_ENDPOINT;
  const tableName = values.table ?? env.TABLE_NAME ?? (await localStackNames()).TABLE_NAME;
  if (endpoint !== undefined) {
    const dynamo = new DynamoDBClient({ endpoint, region: env.AWS_REGION ?? LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    return { documents: documentsOf(dynamo), tableName, close: async () => dynamo.destroy() };
  }
  if (env.TABLE_NAME !== undefined && values['data-dir'] === undefined) {
    const dynamo = new DynamoDBClient({ ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}) });
    return { documents: documentsOf(dynamo), tableName, close: async () => dynamo.destroy() };
  }
  const directory = join(resolve(values['data-dir'] ?? join(REPO_ROOT, '.data')), 'dynamodb');
  if (!existsSync(directory)) throw new Error(`No local table data in ${directory}: run npm start once, or give --endpoint`);
  const local = await startDynamo({ directory });
  return { documents: documentsOf(local.client), tableName, close: local.stop };
}

/** The script: exit code 0 when the chain is whole, 1 when broken, 2 on a usage or connection problem. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { endpoint: { type: 'string' }, table: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const [client, ...extra] = parsed.positionals;
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if (client === undefined || extra.length > 0 || !ClientId.safeParse(client).success) {
    io.err(client === undefined || extra.length > 0 ? USAGE : `Not a client: ${JSON.stringify(client.slice(0, 80))}\n\n${USAGE}`);
    return 2;
  }

  let table: Table;
  try {
    table = await openTable(parsed.values, io.env);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  try {
    const verdict = await verifyChain({ table: createDynamoTableStore(table.documents, table.tableName) }, client);
    io.out(describeVerdict(client, verdict));
    return verdict.whole ? 0 : 1;
  } catch (error) {
    io.err(`Could not read the audit chain of ${client}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await table.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2), {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
