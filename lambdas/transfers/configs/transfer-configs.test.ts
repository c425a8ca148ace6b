import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEventBridgeScheduler } from '#core/adapters/aws/eventbridge-scheduler.ts';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { createLocalKeyService } from '#core/adapters/local/local-key-service.ts';
import type { Config } from '#core/config.ts';
import { createLogger } from '#core/logger.ts';
import { KeyUnwrapError } from '#core/ports/key-service.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { readTransferConfig } from '#core/store/entities/transfer-config.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable, type MemoryTable } from '#core/testing/memory-table.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { JOB_NOT_STARTED, runTransferNow } from './run-now.ts';
import { scheduleNameOf } from './schedules.ts';
import { openSecret } from './secrets.ts';
import {
  CONFIG_EXISTS,
  GROUP_LIMITED,
  SCHEDULE_NOT_SAVED,
  deleteTransferConfig,
  getTransferConfig,
  saveTransferConfig,
  type TransferDependencies,
} from './transfer-configs.ts';

const PUBLIC_KEY = readFileSync(join(import.meta.dirname, '../../../scripts/local/seed/demo-transfer-pgp-public.asc'), 'utf8');
const PRIVATE_KEY = readFileSync(join(import.meta.dirname, '../../../scripts/local/seed/demo-transfer-pgp-private.asc'), 'utf8');
const ZIP_PASSWORD = 'zip-secret-Plaintext-1';
const SFTP_PASSWORD = 'sftp-secret-Plaintext-2';

const aws = mockClient(SchedulerClient);
const notFound = () => Object.assign(new Error('no such schedule'), { name: 'ResourceNotFoundException' });
const keyService = createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'transfer-configs-')) });

let table: MemoryTable;
let started: Array<{ job: string; input: Record<string, unknown> }>;
let failJobStart: boolean;
let deps: TransferDependencies;

/** A role allowing every action on `payloadTypes`; with `limited`, on one group only (a group-limited role). */
const role = (payloadTypes: readonly string[], limited: boolean): Role =>
  ({
    role_reference: 'transfers',
    permissions: [{ actions_matching: '*', ...(limited ? { conditions: [{ names_matching: 'east' }] } : {}) }],
    payload_types: payloadTypes,
    cidr_ranges: [],
    is_system: false,
  }) as unknown as Role;

/** The caller of a transfer configuration endpoint: user-1, with every payload type and every group unless told. */
const caller = (rights: { payloadTypes?: readonly string[]; limited?: boolean } = {}) =>
  tenantCaller(deps, 'acme', createAccessContext({ roles: [role(rights.payloadTypes ?? PAYLOAD_TYPES, rights.limited ?? false)], ip: undefined, isClientApp: false }), {
    action: 'transferConfigs:Create',
    principal: { kind: 'user', client: 'acme', subject: 'user-1' } as UserPrincipal,
  });

const sftpRequest = (overrides: Record<string, unknown> = {}) =>
  TransferConfigRequest.parse({
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call', 'SMS'],
    schedule: 'cron(0 2 * * ? *)',
    pgp_key: PUBLIC_KEY,
    transfer_file_format: 'ZippedWithPassword',
    params: { server: '93.184.215.14', port: 22, root_directory: '/inbox', username: 'verity' },
    secured_data: { zip_password: ZIP_PASSWORD, sftp_password: SFTP_PASSWORD },
    ...overrides,
  });

const storedItem = (reference: string) => table.items.get(`${keys.transferConfig.key('acme', reference).pk}\u0000${keys.transferConfig.key('acme', reference).sk}`);

beforeEach(() => {
  aws.reset();
  aws.on(UpdateScheduleCommand).rejects(notFound());
  aws.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
  aws.on(DeleteScheduleCommand).resolves({});
  table = createMemoryTable();
  started = [];
  failJobStart = false;
  deps = {
    table,
    clock: createFixedClock('2026-11-24T08:00:00.000Z'),
    cursors: createCursorCodec('test-secret-test-secret-test-secret'),
    // A run now writes its transfer's running-job marker with a lease of the long-job budget and margin.
    config: { LONG_JOB_BUDGET_SECONDS: 240, LONG_JOB_LEASE_MARGIN_SECONDS: 90 } as Config,
    keys: keyService,
    scheduler: createEventBridgeScheduler(new SchedulerClient({ region: 'eu-west-2' }), {
      groupName: 'verity-test-transfers',
      targetArn: 'arn:aws:lambda:eu-west-2:123456789012:function:jobs',
      roleArn: 'arn:aws:iam::123456789012:role/scheduler',
    }),
    jobs: {
      async start(job, input) {
        if (failJobStart) throw new Error('invoke refused');
        started.push({ job, input });
      },
    },
    logger: createLogger({ level: 'error', sink: () => undefined }),
  };
});

describe('transfer configurations with their schedules', () => {
  it('creates a configuration, seals its secrets and creates its EventBridge schedule', async () => {
    const answer = await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    expect(answer).toMatchObject({ transfer_config_reference: 'nightly', has_zip_password: true, has_sftp_password: true, updated_by: 'user-1' });
    expect(JSON.stringify(answer)).not.toContain(ZIP_PASSWORD);

    const raw = JSON.stringify(storedItem('nightly'));
    expect(raw).not.toContain(ZIP_PASSWORD);
    expect(raw).not.toContain(SFTP_PASSWORD);
    const stored = readTransferConfig(storedItem('nightly')!);
    expect(await openSecret(deps, { client: 'acme', configReference: 'nightly', field: 'zip_password' }, stored.sealed_zip_password!)).toBe(ZIP_PASSWORD);
    // Bound to its configuration and field: the same sealed bytes do not open elsewhere.
    await expect(openSecret(deps, { client: 'acme', configReference: 'other', field: 'zip_password' }, stored.sealed_zip_password!)).rejects.toBeInstanceOf(KeyUnwrapError);
    await expect(openSecret(deps, { client: 'acme', configReference: 'nightly', field: 'sftp_password' }, stored.sealed_zip_password!)).rejects.toBeInstanceOf(KeyUnwrapError);

    const created = aws.commandCalls(CreateScheduleCommand)[0]?.args[0].input;
    expect(created).toMatchObject({
      Name: scheduleNameOf('acme', 'nightly'),
      GroupName: 'verity-test-transfers',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
    });
    expect(JSON.parse(created?.Target?.Input ?? '{}')).toEqual({
      job: 'transfer',
      input: { client: 'acme', transfer_config_reference: 'nightly', trigger: 'schedule' },
    });
    expect(stored.schedule_name).toBe(scheduleNameOf('acme', 'nightly'));
  });

  it('refuses a second create of the same reference (409) without touching the schedule', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    aws.resetHistory();
    await expect(saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create')).rejects.toMatchObject({ status: 409, lines: [CONFIG_EXISTS] });
    expect(aws.calls()).toHaveLength(0);
  });

  it('records nothing when the schedule cannot be created', async () => {
    aws.on(CreateScheduleCommand).rejects(new Error('throttled'));
    await expect(saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create')).rejects.toMatchObject({
      status: 503,
      lines: [SCHEDULE_NOT_SAVED],
    });
    expect(storedItem('nightly')).toBeUndefined();
  });

  it('keeps secrets not given again, and removes the schedule when the configuration is deactivated', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    const before = readTransferConfig(storedItem('nightly')!);
    const answer = await saveTransferConfig(caller(), 'nightly', sftpRequest({ is_active: false, secured_data: undefined }), 'replace');
    expect(answer).toMatchObject({ is_active: false, has_zip_password: true, has_sftp_password: true });
    const after = readTransferConfig(storedItem('nightly')!);
    expect(after.sealed_zip_password).toEqual(before.sealed_zip_password);
    expect(after.schedule_name).toBeUndefined();
    expect(aws.commandCalls(DeleteScheduleCommand)[0]?.args[0].input).toEqual({ Name: before.schedule_name, GroupName: 'verity-test-transfers' });
  });

  it('drops a secret the configuration no longer uses (S3 target, plain zip)', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    const s3 = sftpRequest({
      target_type: 'S3',
      transfer_file_format: 'Zipped',
      params: { destination: 's3://acme-archive/verity/', iam_role_arn: 'arn:aws:iam::123456789012:role/verity-transfer' },
      secured_data: undefined,
    });
    const answer = await saveTransferConfig(caller(), 'nightly', s3, 'replace');
    expect(answer).toMatchObject({ target_type: 'S3', has_zip_password: false, has_sftp_password: false });
    expect(JSON.stringify(storedItem('nightly'))).not.toContain('sealed_');
  });

  it('answers an S3 target with the ExternalId its role must require, an SFTP one without, and stores none', async () => {
    const sftp = await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    expect(sftp).not.toHaveProperty('external_id');
    const s3 = sftpRequest({
      target_type: 'S3',
      transfer_file_format: 'Zipped',
      params: { destination: 's3://acme-archive/verity/', iam_role_arn: 'arn:aws:iam::123456789012:role/verity-transfer' },
      secured_data: undefined,
    });
    expect(await saveTransferConfig(caller(), 'nightly', s3, 'replace')).toMatchObject({ external_id: 'verity-acme' });
    expect(await getTransferConfig(caller(), 'nightly')).toMatchObject({ external_id: 'verity-acme' });
    expect(storedItem('nightly')).not.toHaveProperty('external_id');
  });

  it('puts the previous configuration back when the changed schedule cannot be saved', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    const before = storedItem('nightly');
    aws.on(CreateScheduleCommand).rejects(new Error('service down'));
    await expect(
      saveTransferConfig(caller(), 'nightly', sftpRequest({ schedule: 'rate(6 hours)' }), 'replace'),
    ).rejects.toMatchObject({ status: 503 });
    expect(storedItem('nightly')).toEqual(before);
    expect((await getTransferConfig(caller(), 'nightly')).schedule).toBe('cron(0 2 * * ? *)');
  });

  it('deletes the configuration with its schedule, and keeps it when the schedule cannot be removed', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    aws.on(DeleteScheduleCommand).rejectsOnce(new Error('service down'));
    await expect(deleteTransferConfig(caller(), 'nightly')).rejects.toMatchObject({ status: 503 });
    expect(storedItem('nightly')).toBeDefined();

    // Tried again a moment later (this clock stands still; each delete keeps a version named by its time).
    (deps.clock as ReturnType<typeof createFixedClock>).advance(1);
    await deleteTransferConfig(caller(), 'nightly');
    expect(storedItem('nightly')).toBeUndefined();
    expect(aws.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input.Name)).toEqual([
      scheduleNameOf('acme', 'nightly'),
      scheduleNameOf('acme', 'nightly'),
    ]);
    await expect(getTransferConfig(caller(), 'nightly')).rejects.toMatchObject({ status: 404 });
  });

  it('creates no schedule for a configuration run on demand only', async () => {
    await saveTransferConfig(caller(), 'manual', sftpRequest({ schedule: '' }), 'create');
    expect(aws.calls()).toHaveLength(0);
    expect(readTransferConfig(storedItem('manual')!).schedule_name).toBeUndefined();
  });

  it('leaves the schedule of the last write when two writers finish their schedule calls out of order', async () => {
    const schedules = new Map<string, string>();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holdNext = false;
    let entered: () => void = () => undefined;
    const firstIsScheduling = new Promise<void>((resolve) => (entered = resolve));
    deps = {
      ...deps,
      scheduler: {
        async upsertSchedule(definition) {
          if (holdNext) {
            holdNext = false;
            entered();
            await held;
          }
          schedules.set(definition.name, definition.expression);
        },
        async deleteSchedule(name) {
          schedules.delete(name);
        },
      },
    };
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    holdNext = true;
    // A writes its item, then waits in its schedule call while B writes and schedules; A's call lands last.
    const first = saveTransferConfig(caller(), 'nightly', sftpRequest({ schedule: 'rate(1 hour)', secured_data: undefined }), 'replace');
    await firstIsScheduling;
    await saveTransferConfig(caller(), 'nightly', sftpRequest({ schedule: 'rate(2 hours)', secured_data: undefined }), 'replace');
    release();
    await first;
    expect((await getTransferConfig(caller(), 'nightly')).schedule).toBe('rate(2 hours)');
    expect(schedules.get(scheduleNameOf('acme', 'nightly'))).toBe('rate(2 hours)');
  });

  it('refuses a caller whose role is limited to some groups', async () => {
    const limited = caller({ limited: true });
    await expect(saveTransferConfig(limited, 'nightly', sftpRequest(), 'create')).rejects.toMatchObject({ status: 403, lines: [GROUP_LIMITED] });
  });
});

describe('transfer configuration validation', () => {
  const problems = async (request: TransferConfigRequest, who = caller()) => {
    try {
      await saveTransferConfig(who, 'checked', request, 'create');
    } catch (error) {
      return (error as { status: number; lines: string[] }).lines;
    }
    throw new Error('expected a refusal');
  };

  it('gives one line per problem, in the contract wording', async () => {
    const lines = await problems(
      {
        ...sftpRequest({
          pgp_key: PRIVATE_KEY.replace('PRIVATE KEY BLOCK', 'PUBLIC KEY BLOCK').replace('PRIVATE KEY BLOCK', 'PUBLIC KEY BLOCK'),
          params: { server: 'host; rm -rf /', port: 22, root_directory: '/inbox/../etc', username: 'a\nb' },
          secured_data: { sftp_password: SFTP_PASSWORD },
        }),
        // The contract refuses it too; the service checks again for callers that skip the contract. croner reads it,
        // but EventBridge needs exactly one of day-of-month and day-of-week to be "?".
        schedule: 'cron(0 2 * * * *)',
      },
      caller({ payloadTypes: ['Call'] }),
    );
    expect(lines).toEqual([
      'body.schedule: Must be a valid cron or rate expression',
      expect.stringMatching(/^body\.pgp_key: must be a valid PGP key/),
      'body.params.server: Must be a host name or an IP address',
      'body.params.root_directory: Must not contain "." or ".." parts or control characters',
      'body.params.username: Must not contain control characters',
      'body.secured_data.zip_password: The zip_password field is required.',
      'body.payload_types.1: Your roles may not read SMS payloads',
    ]);
    expect(storedItem('checked')).toBeUndefined();
    expect(aws.calls()).toHaveLength(0);
  });

  it('refuses secrets the format or target does not use, and unsafe S3 destinations', async () => {
    const lines = await problems(
      sftpRequest({
        target_type: 'S3',
        transfer_file_format: 'Zipped',
        params: { destination: 's3://Not_A_Bucket/../x', iam_role_arn: 'arn:aws:iam::123456789012:role/verity-transfer' },
      }),
    );
    expect(lines).toEqual([
      expect.stringMatching(/^body\.params\.destination: Must be s3:\/\/<bucket>/),
      'body.secured_data.zip_password: Only used with the ZippedWithPassword file format',
      'body.secured_data.sftp_password: Only used with an SFTP target',
    ]);
  });
});

describe('run now', () => {
  it('records a Pending transfer, then starts the transfer job with the configuration reference', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    const answer = await runTransferNow(caller(), 'nightly');
    expect(answer.transfer_state).toBe('Pending');
    const item = await table.get(keys.transfer.key('acme', answer.transfer_id));
    expect(readTransfer(item!)).toMatchObject({ transfer_config_reference: 'nightly', transfer_state: 'Pending', started_by: 'user-1', payload_count: 0 });
    expect(started).toEqual([
      { job: 'transfer', input: { client: 'acme', transfer_config_reference: 'nightly', transfer_id: answer.transfer_id, trigger: 'run' } },
    ]);
  });

  it('marks the transfer Failed and answers 503 when the job cannot be started', async () => {
    await saveTransferConfig(caller(), 'nightly', sftpRequest(), 'create');
    failJobStart = true;
    await expect(runTransferNow(caller(), 'nightly')).rejects.toMatchObject({ status: 503, lines: [JOB_NOT_STARTED] });
    const transfers = (await table.query({ ...keys.transfer.list('acme') })).items.map(readTransfer);
    expect(transfers).toEqual([expect.objectContaining({ transfer_state: 'Failed', error_message: JOB_NOT_STARTED })]);
  });

  it('refuses an inactive configuration, an unknown one, and payload types the caller may not read', async () => {
    await saveTransferConfig(caller(), 'off', sftpRequest({ is_active: false }), 'create');
    await expect(runTransferNow(caller(), 'off')).rejects.toMatchObject({ status: 409 });
    await expect(runTransferNow(caller(), 'missing')).rejects.toMatchObject({ status: 404 });
    await saveTransferConfig(caller(), 'on', sftpRequest(), 'create');
    await expect(runTransferNow(caller({ payloadTypes: ['Call'] }), 'on')).rejects.toMatchObject({ status: 403 });
    expect(started).toEqual([]);
  });
});
