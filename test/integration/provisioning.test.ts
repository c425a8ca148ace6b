import { randomUUID } from 'node:crypto';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  GetGroupCommand,
  ResourceNotFoundException,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountDefaults } from '#shared/contract/entities/account.ts';
import { Role } from '#shared/contract/entities/roles.ts';
import { keys } from '#core/store/keys.ts';
import { main as staffMain } from '../../scripts/admin/staff.ts';
import { main as tenantMain } from '../../scripts/admin/tenant.ts';
import { tenantItems } from '../../scripts/admin/tenant-items.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { TABLE_NAME } from '../../scripts/local/stack.ts';
import { api, stack } from './support/stack.ts';

/**
 * The provisioning commands (`npm run tenant`, `npm run staff`) against DynamoDB Local, with Cognito and
 * CloudFormation (no local stand-in) mocked: the mock keeps a small user pool in memory, so a second run meets
 * what the first one created, as it would in AWS.
 */
const run = randomUUID().slice(0, 8);
const cognito = mockClient(CognitoIdentityProviderClient);
const cloudFormation = mockClient(CloudFormationClient);
let documents: DynamoDBDocumentClient;

interface PoolUser {
  attributes: Record<string, string>;
  groups: Set<string>;
}
/** The mocked pools: pool id → (username → user), and pool id → groups. */
let users: Map<string, Map<string, PoolUser>>;
let groups: Map<string, Set<string>>;

const TENANT_POOL = 'eu-west-2_tenants';
const STAFF_POOL = 'eu-west-2_staff';

function poolUsers(pool: string | undefined): Map<string, PoolUser> {
  if (pool === undefined || !users.has(pool)) throw new ResourceNotFoundException({ message: 'User pool does not exist.', $metadata: {} });
  return users.get(pool) as Map<string, PoolUser>;
}
function poolUser(pool: string | undefined, name: string | undefined): PoolUser {
  const user = poolUsers(pool).get(name ?? '');
  if (user === undefined) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
  return user;
}
const asAttributes = (user: PoolUser) => Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value }));

function fakePools(): void {
  users = new Map([
    [TENANT_POOL, new Map()],
    [STAFF_POOL, new Map()],
  ]);
  groups = new Map([
    [TENANT_POOL, new Set()],
    [STAFF_POOL, new Set(['staff', 'support'])],
  ]);
  cognito.reset();
  cloudFormation.reset();
  cognito.on(AdminGetUserCommand).callsFake((input) => ({ Username: input.Username, UserAttributes: asAttributes(poolUser(input.UserPoolId, input.Username)) }));
  cognito.on(AdminCreateUserCommand).callsFake((input) => {
    const attributes = Object.fromEntries((input.UserAttributes ?? []).map((entry: { Name: string; Value: string }) => [entry.Name, entry.Value]));
    const user = { attributes: { ...attributes, sub: randomUUID() }, groups: new Set<string>() };
    poolUsers(input.UserPoolId).set(input.Username, user);
    return { User: { Username: input.Username, Attributes: asAttributes(user) } };
  });
  cognito.on(AdminListGroupsForUserCommand).callsFake((input) => ({
    Groups: [...poolUser(input.UserPoolId, input.Username).groups].map((GroupName) => ({ GroupName })),
  }));
  cognito.on(AdminAddUserToGroupCommand).callsFake((input) => {
    if (!groups.get(input.UserPoolId)?.has(input.GroupName)) throw new ResourceNotFoundException({ message: 'Group not found.', $metadata: {} });
    poolUser(input.UserPoolId, input.Username).groups.add(input.GroupName);
    return {};
  });
  cognito.on(GetGroupCommand).callsFake((input) => {
    if (!groups.get(input.UserPoolId)?.has(input.GroupName)) throw new ResourceNotFoundException({ message: 'Group not found.', $metadata: {} });
    return { Group: { GroupName: input.GroupName } };
  });
  cognito.on(CreateGroupCommand).callsFake((input) => {
    groups.get(input.UserPoolId)?.add(input.GroupName);
    return { Group: { GroupName: input.GroupName } };
  });
}

/** Runs a command against DynamoDB Local, collecting its lines. */
async function runCommand(main: typeof tenantMain, args: string[], now = new Date('2026-01-02T03:04:05.000Z')) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { env: { AWS_REGION: LOCAL_REGION }, out: (line) => out.push(line), err: (line) => err.push(line) }, () => now);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const local = () => ['--endpoint', stack().dynamoEndpoint];
const tenantFlags = () => [...local(), '--table', TABLE_NAME, '--user-pool', TENANT_POOL];
const staffFlags = () => [...local(), '--table', TABLE_NAME, '--user-pool', STAFF_POOL];
const read = async (key: { pk?: unknown; sk?: unknown }) => (await documents.send(new GetCommand({ TableName: TABLE_NAME, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }))).Item;
const creates = () => cognito.commandCalls(AdminCreateUserCommand);

beforeAll(() => {
  const dynamo = new DynamoDBClient({ endpoint: stack().dynamoEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  documents = DynamoDBDocumentClient.from(dynamo);
});
beforeEach(() => fakePools());
afterAll(() => {
  cognito.restore();
  cloudFormation.restore();
});

describe('npm run tenant -- create', () => {
  it('writes the tenant exactly as the seed builds it, creates its administrator, and signs-in knows the tenant', async () => {
    const client = `it-prov-${run}-a`;
    expect((await api(`/api/v1/${client}/account/metadata`)).status).toBe(404);

    const result = await runCommand(tenantMain, ['create', client, '--admin', ' Ada@Example.COM ', '--name', 'Ada & Co', '--first-name', 'Ada', ...tenantFlags()]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('Done: 8 changes.');

    for (const expected of tenantItems(client, 'Ada & Co', '2026-01-02T03:04:05.000Z', 'provisioning')) expect(await read(expected)).toEqual(expected);
    AccountDefaults.parse(await read(keys.account.setting(client, 'DEFAULTS')));
    expect(Role.parse(await read(keys.role.item(client, 'admin'))).is_system).toBe(true);

    const [create] = creates();
    expect(create?.args[0].input).toMatchObject({
      UserPoolId: TENANT_POOL,
      Username: 'ada@example.com',
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: expect.arrayContaining([
        { Name: 'email', Value: 'ada@example.com' },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'custom:client', Value: client },
      ]),
    });
    expect(create?.args[0].input.TemporaryPassword).toBeUndefined();
    const user = users.get(TENANT_POOL)?.get('ada@example.com');
    expect([...(user?.groups ?? [])]).toEqual(['admin']);
    expect(await read(keys.portalUser.item(client, user?.attributes.sub ?? ''))).toMatchObject({
      client,
      email: 'ada@example.com',
      first_name: 'Ada',
      roles: ['admin'],
      user_group: '*',
      updated_by: 'provisioning',
    });

    const metadata = await api(`/api/v1/${client}/account/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ client, display_name: 'Ada & Co' });
  });

  it('changes nothing on a second run and says so', async () => {
    const client = `it-prov-${run}-b`;
    const args = ['create', client, '--admin', 'bo@example.com', ...tenantFlags()];
    expect((await runCommand(tenantMain, args)).code).toBe(0);
    const account = await read(keys.account.item(client));

    const again = await runCommand(tenantMain, args, new Date('2027-01-01T00:00:00.000Z'));
    expect(again.code).toBe(0);
    expect(again.out).toContain('Nothing changed: everything was already there.');
    expect(again.out).not.toContain(': created');
    expect(creates()).toHaveLength(1);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(1);
    expect(cognito.commandCalls(CreateGroupCommand)).toHaveLength(1);
    expect(await read(keys.account.item(client))).toEqual(account);
  });

  it("brings an existing tenant's system roles up to this version's, and leaves its own items as they are", async () => {
    const client = `it-prov-${run}-d`;
    const args = ['create', client, '--admin', 'di@example.com', ...tenantFlags()];
    expect((await runCommand(tenantMain, args)).code).toBe(0);
    // As a tenant provisioned before the reviewer reviewed had it: reads only, the old description.
    const reviewerKey = keys.role.item(client, 'reviewer');
    const current = await read(reviewerKey);
    await documents.send(
      new PutCommand({
        TableName: TABLE_NAME,
        Item: { ...current, description: 'Reads everything, changes nothing', permissions: [{ actions_matching: '*:List', is_denied: false, is_regex: false }] },
      }),
    );
    const account = await read(keys.account.item(client));

    const again = await runCommand(tenantMain, args, new Date('2027-01-01T00:00:00.000Z'));
    expect(again.code).toBe(0);
    expect(again.out).toContain('role reviewer: updated');
    expect(again.out).toContain('Done: 1 change.');
    const [, , , reviewer] = tenantItems(client, client, '2027-01-01T00:00:00.000Z', 'provisioning');
    expect(await read(reviewerKey)).toEqual(reviewer);
    expect(Role.parse(await read(reviewerKey)).permissions.map((permission) => permission.actions_matching)).toContain('payloads:Play');
    expect(await read(keys.account.item(client))).toEqual(account);

    // A role of that name that is not a system role is never overwritten.
    await documents.send(new PutCommand({ TableName: TABLE_NAME, Item: { ...reviewer, is_system: false, description: 'ours' } }));
    const third = await runCommand(tenantMain, args);
    expect(third.out).toContain('role reviewer: already there (a role of this name that is not a system role: left as it is)');
    expect(await read(reviewerKey)).toMatchObject({ is_system: false, description: 'ours' });
  });

  it('finishes a run that stopped half-way: only what is missing is created', async () => {
    const client = `it-prov-${run}-c`;
    cognito.on(AdminCreateUserCommand).rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));
    const first = await runCommand(tenantMain, ['create', client, '--admin', 'cy@example.com', ...tenantFlags()]);
    expect(first.code).toBe(1);
    expect(first.err).toContain('Rate exceeded');
    expect(await read(keys.account.item(client))).toBeDefined();

    fakePools();
    const second = await runCommand(tenantMain, ['create', client, '--admin', 'cy@example.com', ...tenantFlags()]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/account: already there[\s\S]*user cy@example\.com: created/);
  });

  it('refuses a user who already belongs to another tenant or lacks the role, changing nothing in Cognito', async () => {
    const client = `it-prov-${run}-d`;
    users.get(TENANT_POOL)?.set('dee@example.com', { attributes: { sub: randomUUID(), email: 'dee@example.com', 'custom:client': 'demo' }, groups: new Set(['admin']) });
    const other = await runCommand(tenantMain, ['create', client, '--admin', 'dee@example.com', ...tenantFlags()]);
    expect(other.code).toBe(1);
    expect(other.err).toBe('dee@example.com already exists in the tenants pool as a user of demo; nothing changed.');

    users.get(TENANT_POOL)?.set('eve@example.com', { attributes: { sub: randomUUID(), email: 'eve@example.com', 'custom:client': client }, groups: new Set(['reviewer']) });
    const role = await runCommand(tenantMain, ['create', client, '--admin', 'eve@example.com', ...tenantFlags()]);
    expect(role.code).toBe(1);
    expect(role.err).toContain('eve@example.com already exists with role reviewer, not admin; nothing changed');
    expect(creates()).toHaveLength(0);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
  });

  it('refuses hostile client names, e-mails and display names before calling AWS or writing anything', async () => {
    const badClients = ['', 'A', 'x', '-lead', 'admin', 'Acme', 'a'.repeat(64), 'acme/../demo', 'acme#ROLES', "acme' OR 1=1", 'ａｃｍｅ', 'acme\n', '__proto__', 'acme%00'];
    for (const client of badClients) {
      const result = await runCommand(tenantMain, ['create', client, '--admin', 'ok@example.com', ...tenantFlags()]);
      expect(result.code, client).toBe(2);
      expect(result.err, client).toMatch(/^(Not a client name|"admin" is the provider's own client|Unknown option)/);
    }
    for (const email of ['', 'no-at-sign', 'a@b', 'a b@example.com', `${'x'.repeat(300)}@example.com`, 'a@b@example.com']) {
      const result = await runCommand(tenantMain, ['create', `it-prov-${run}-e`, '--admin', email, ...tenantFlags()]);
      expect(result.code, email).toBe(2);
    }
    const name = await runCommand(tenantMain, ['create', `it-prov-${run}-e`, '--admin', 'ok@example.com', '--name', 'Bell\u0007Co', ...tenantFlags()]);
    expect(name.code).toBe(2);
    expect(name.err).toContain('--name: no control characters');
    expect((await runCommand(tenantMain, ['create', `it-prov-${run}-e`, ...tenantFlags()])).err).toContain('--admin <email> is required');
    expect((await runCommand(tenantMain, ['delete', `it-prov-${run}-e`, '--admin', 'ok@example.com'])).code).toBe(2);
    expect((await runCommand(tenantMain, ['create', `it-prov-${run}-e`, '--admin', 'ok@example.com', '--bogus'])).err).toContain("Unknown option '--bogus'");

    expect(cognito.calls()).toHaveLength(0);
    expect(cloudFormation.calls()).toHaveLength(0);
    expect(await read(keys.account.item(`it-prov-${run}-e`))).toBeUndefined();
  });

  it('reads the table and the tenants pool from the stage stack outputs', async () => {
    const client = `it-prov-${run}-f`;
    cloudFormation.on(DescribeStacksCommand, { StackName: 'verity-qa-data' }).resolves({
      Stacks: [{ StackName: 'verity-qa-data', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [{ OutputKey: 'TableName', OutputValue: TABLE_NAME }] }],
    });
    cloudFormation.on(DescribeStacksCommand, { StackName: 'verity-qa-auth' }).resolves({
      Stacks: [
        {
          StackName: 'verity-qa-auth',
          StackStatus: 'CREATE_COMPLETE',
          CreationTime: new Date(),
          Outputs: [
            { OutputKey: 'StaffUserPoolId', OutputValue: STAFF_POOL },
            { OutputKey: 'TenantUserPoolId', OutputValue: TENANT_POOL },
          ],
        },
      ],
    });
    const result = await runCommand(tenantMain, ['create', client, '--admin', 'fay@example.com', '--stage', 'qa', ...local()]);
    expect(result.err).toBe('');
    expect(result.out).toContain(`Tenant ${client} on stage qa (table ${TABLE_NAME}, user pool ${TENANT_POOL})`);
    expect(users.get(TENANT_POOL)?.has('fay@example.com')).toBe(true);
  });

  it('says what to do when the stage is not deployed, an output is missing, or there are no credentials', async () => {
    const client = `it-prov-${run}-g`;
    const args = ['create', client, '--admin', 'gus@example.com', '--stage', 'nowhere', ...local()];
    cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id verity-nowhere-data does not exist'), { name: 'ValidationError' }));
    const missing = await runCommand(tenantMain, args);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('Stack verity-nowhere-data does not exist in this account and region: deploy the stage first, or check --stage and AWS_REGION.');

    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand).resolves({ Stacks: [{ StackName: 'x', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [] }] });
    const old = await runCommand(tenantMain, args);
    expect(old.err).toBe('Stack verity-nowhere-data has no output TableName: redeploy it with this version (npx cdk deploy --all -c stage=nowhere).');

    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }));
    const anonymous = await runCommand(tenantMain, args);
    expect(anonymous.code).toBe(1);
    expect(anonymous.err).toMatch(/^No AWS credentials: sign in first/);

    expect(cognito.calls()).toHaveLength(0);
    expect(await read(keys.account.item(client))).toBeUndefined();
  });

  it('names a table that does not exist', async () => {
    const result = await runCommand(tenantMain, ['create', `it-prov-${run}-h`, '--admin', 'hal@example.com', ...local(), '--table', 'no-such-table', '--user-pool', TENANT_POOL]);
    expect(result.code).toBe(1);
    expect(result.err).toBe('Table no-such-table does not exist here: check --table, --stage and AWS_REGION.');
  });
});

describe('npm run staff -- create', () => {
  it('creates a staff member in the staff pool and group, with a portal user item in the provider client, once', async () => {
    const email = `support-${run}@verity.example`;
    const result = await runCommand(staffMain, ['create', email, '--role', 'support', '--print-password', ...staffFlags()]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const [create] = creates();
    expect(create?.args[0].input).toMatchObject({ UserPoolId: STAFF_POOL, Username: email, MessageAction: 'SUPPRESS' });
    expect(create?.args[0].input.UserAttributes?.some((entry) => entry.Name === 'custom:client')).toBe(false);
    const password = create?.args[0].input.TemporaryPassword ?? '';
    expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{12,}$/);
    expect(result.out).toContain(`Temporary password of ${email} (valid 3 days, replaced at the first sign-in): ${password}`);

    const user = users.get(STAFF_POOL)?.get(email);
    expect([...(user?.groups ?? [])]).toEqual(['support']);
    expect(await read(keys.portalUser.item('admin', user?.attributes.sub ?? ''))).toMatchObject({ client: 'admin', email, roles: ['support'] });

    const again = await runCommand(staffMain, ['create', email, '--role', 'support', ...staffFlags()]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Nothing changed');
    expect(again.out).not.toContain('Temporary password');
    expect(creates()).toHaveLength(1);

    const promote = await runCommand(staffMain, ['create', email, '--role', 'staff', ...staffFlags()]);
    expect(promote.code).toBe(1);
    expect(promote.err).toContain('already exists with role support, not staff');
  });

  it('refuses an unknown role or a bad e-mail before calling AWS', async () => {
    for (const args of [
      ['create', 'ok@example.com', '--role', 'admin'],
      ['create', 'ok@example.com'],
      ['create', 'not-an-email', '--role', 'staff'],
      ['create', 'ok@example.com', '--role', 'staff', '--surname', ',comma'],
    ]) {
      const result = await runCommand(staffMain, [...args, ...staffFlags()]);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(cognito.calls()).toHaveLength(0);
  });

  it('names a user pool that does not exist', async () => {
    const result = await runCommand(staffMain, ['create', 'ok@example.com', '--role', 'staff', ...local(), '--table', TABLE_NAME, '--user-pool', 'eu-west-2_gone']);
    expect(result.code).toBe(1);
    expect(result.err).toBe('User pool eu-west-2_gone does not exist here: check --user-pool, --stage and AWS_REGION.');
  });
});
