import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ClientId } from '#shared/contract/fields.ts';
import { createDynamoTableStore } from '#core/adapters/aws/dynamodb-table-store.ts';
import { createKmsKeyService } from '#core/adapters/aws/kms-key-service.ts';
import { createLocalKeyService } from '#core/adapters/local/local-key-service.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../lambdas/audit/trail/signing-key.ts';
import { verifyChain, type ChainReport } from '../lambdas/audit/trail/verify-chain.ts';
import type { KeyService } from '#core/ports/key-service.ts';
import { ACTIVITY_TRAILS } from '#core/store/keys.ts';
import { verifyExportFile } from './audit/verify-file.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamo } from './local/dynamodb.ts';

const USAGE = `Usage: npm run audit:verify -- <client> [--endpoint <dynamodb url>] [--table <name>] [--data-dir <dir>]
       npm run audit:verify -- --file <export.tar> [--public-key <pem>]

Verifies a tenant's two audit trails (user activity, device activity): the signed checkpoints, every link of
the hash chain, every record against its link (a record retention disposed of against its disposal record), and
names the first broken one; reports records still waiting to be linked and those disposed of.
Where the table is:
  --endpoint or DYNAMODB_ENDPOINT   a running DynamoDB (Local), e.g. the one npm start runs;
  TABLE_NAME without an endpoint    the AWS table, with the usual AWS credentials and AWS_REGION;
  otherwise                         the local stack's data (--data-dir, default .data/): the script starts its own
                                    DynamoDB Local on it, so npm start need not be running.
With --file, verifies an exported trail offline (docs/audit-export.md): the manifest's signature, each file's SHA-256,
every record's hash and link, the checkpoints' signatures and that they cover the chain; names the first break.
--public-key is the audit signing key Verity publishes (GET activities/signing-key); without it the copy
inside the file is used, which proves the file whole but not who signed it.
Which key verifies the checkpoints:
  in AWS                            AUDIT_SIGNING_KEY_ID (the KMS signing key; kms:Verify needed);
  locally                           the local key service of --data-dir (or DATA_DIR, default .data/).`;

export interface Io {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

const TRAIL_NAMES = { user: 'User activity', device: 'Device activity' } as const;

/** The line the script prints for one trail. */
export function describeReport(client: string, report: ChainReport): string {
  const name = `${TRAIL_NAMES[report.trail]} of ${client}`;
  const waiting = `${report.pending} waiting to be linked${report.oldestPendingAt === undefined ? '' : ` (oldest ${report.oldestPendingAt})`}`;
  const checkpoints = `${report.checkpoints} signed checkpoints${report.lastCheckpointAt === undefined ? '' : ` (last ${report.lastCheckpointAt})`}`;
  const disposed =
    report.destroyed + report.deleted === 0 ? '' : ` (${report.destroyed} destroyed and ${report.deleted} deleted by retention, each under its disposal record)`;
  // Record versions the linked records name, each recomputed against the digest its record carries.
  const versions = (report.versions ?? 0) === 0 ? '' : `, ${report.versions} record versions matching their digests`;
  if (report.broken === undefined) return `${name} is whole: ${report.linked} records linked${disposed}${versions}, ${waiting}, ${checkpoints}`;
  return `${name} is broken at ${report.broken.at}: ${report.broken.reason}: ${report.broken.detail}`;
}

/** The key service and key id that verify checkpoints where the table is (see USAGE). */
function verifyingKeys(values: { endpoint?: string; 'data-dir'?: string }, env: Io['env']): { keys: KeyService; keyId: string } {
  const aws = values.endpoint === undefined && env.DYNAMODB_ENDPOINT === undefined && env.TABLE_NAME !== undefined && values['data-dir'] === undefined;
  if (aws) {
    if (env.AUDIT_SIGNING_KEY_ID === undefined) throw new Error('AUDIT_SIGNING_KEY_ID is required to verify the checkpoints in AWS');
    return { keys: createKmsKeyService(new KMSClient({ ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}) })), keyId: env.AUDIT_SIGNING_KEY_ID };
  }
  const dataDir = resolve(values['data-dir'] ?? env.DATA_DIR ?? join(REPO_ROOT, '.data'));
  return { keys: createLocalKeyService({ dataDir }), keyId: env.AUDIT_SIGNING_KEY_ID ?? LOCAL_AUDIT_SIGNING_KEY_ID };
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

/** `--file`: 0 when the export is whole, 1 when broken, 2 when the file or key cannot be read. */
async function verifyFileCommand(file: string, publicKeyFile: string | undefined, positionals: readonly string[], io: Io): Promise<number> {
  if (positionals.length > 0) {
    io.err(USAGE);
    return 2;
  }
  let archive: Buffer;
  let publicKey: string | undefined;
  try {
    archive = await readFile(file);
    publicKey = publicKeyFile === undefined ? undefined : await readFile(publicKeyFile, 'utf8');
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const report = verifyExportFile(archive, publicKey);
  (report.whole ? io.out : io.err)(report.summary);
  for (const note of report.notes) io.out(`Note: ${note}`);
  return report.whole ? 0 : 1;
}

/** The script: exit code 0 when both trails are whole, 1 when one is broken, 2 on a usage or connection problem. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        endpoint: { type: 'string' },
        table: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean' },
        // An exported trail (POST activities/exports), verified offline: ./audit/verify-file.ts.
        file: { type: 'string' },
        'public-key': { type: 'string' },
      },
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
  if (parsed.values.file !== undefined) return verifyFileCommand(parsed.values.file, parsed.values['public-key'], parsed.positionals, io);
  if (client === undefined || extra.length > 0 || !ClientId.safeParse(client).success) {
    io.err(client === undefined || extra.length > 0 ? USAGE : `Not a client: ${JSON.stringify(client.slice(0, 80))}\n\n${USAGE}`);
    return 2;
  }

  let table: Table;
  let signing: { keys: KeyService; keyId: string };
  try {
    signing = verifyingKeys(parsed.values, io.env);
    table = await openTable(parsed.values, io.env);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  try {
    const store = createDynamoTableStore(table.documents, table.tableName);
    let whole = true;
    for (const trail of ACTIVITY_TRAILS) {
      const report = await verifyChain({ table: store, keys: signing.keys }, client, trail, { signingKeyId: signing.keyId });
      io.out(describeReport(client, report));
      whole &&= report.whole;
    }
    return whole ? 0 : 1;
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
