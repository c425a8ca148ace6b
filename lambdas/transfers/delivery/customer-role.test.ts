import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerRoleCredentials, externalIdOf, roleSessionNameOf } from './customer-role.ts';
import { DeliveryError } from './types.ts';

const sts = mockClient(STSClient);
const roleArn = 'arn:aws:iam::210987654321:role/verity-delivery';
const issued = (key: string, expiresInMs: number, now: number) => ({
  Credentials: { AccessKeyId: key, SecretAccessKey: `secret-${key}`, SessionToken: `token-${key}`, Expiration: new Date(now + expiresInMs) },
});

beforeEach(() => sts.reset());

describe('assuming the customer role', () => {
  it('assumes the configured role with the tenant ExternalId and a session named after the tenant', async () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    sts.on(AssumeRoleCommand).resolves(issued('ASIAFIRST', 3600_000, now));
    const credentials = customerRoleCredentials(new STSClient({ region: 'eu-west-2' }), { client: 'acme', roleArn, now: () => now });
    expect(await credentials()).toMatchObject({ accessKeyId: 'ASIAFIRST', secretAccessKey: 'secret-ASIAFIRST', sessionToken: 'token-ASIAFIRST' });
    expect(sts.commandCalls(AssumeRoleCommand).map((call) => call.args[0].input)).toEqual([
      { RoleArn: roleArn, ExternalId: 'verity-acme', RoleSessionName: 'verity-transfer-acme', DurationSeconds: 3600 },
    ]);
  });

  it('keeps the credentials until five minutes before they expire, then assumes the role again', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z');
    const start = now;
    sts.on(AssumeRoleCommand).resolvesOnce(issued('ASIAFIRST', 3600_000, start)).resolvesOnce(issued('ASIASECOND', 3600_000, start + 3600_000));
    const credentials = customerRoleCredentials(new STSClient({ region: 'eu-west-2' }), { client: 'acme', roleArn, now: () => now });
    expect((await credentials()).accessKeyId).toBe('ASIAFIRST');
    now = start + 54 * 60_000;
    expect((await credentials()).accessKeyId).toBe('ASIAFIRST');
    now = start + 56 * 60_000;
    expect((await credentials()).accessKeyId).toBe('ASIASECOND');
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
  });

  it('a role that does not trust us is a lasting refusal naming the ExternalId; a fault of STS may be retried', async () => {
    sts
      .on(AssumeRoleCommand)
      .rejectsOnce(Object.assign(new Error('not authorized to perform sts:AssumeRole'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }))
      .rejectsOnce(Object.assign(new Error('internal'), { name: 'InternalError', $fault: 'server', $metadata: { httpStatusCode: 500 } }));
    const credentials = customerRoleCredentials(new STSClient({ region: 'eu-west-2' }), { client: 'globex', roleArn });
    const refused = await credentials().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeliveryError);
    expect(refused).toMatchObject({ retryable: false, message: expect.stringContaining('sts:ExternalId verity-globex') });
    expect(await credentials().catch((error: unknown) => error)).toMatchObject({ retryable: true });
  });

  it('derives ExternalId and session name from the tenant alone, the session name within STS limits', () => {
    expect(externalIdOf('acme')).toBe('verity-acme');
    expect(roleSessionNameOf('a b/c')).toBe('verity-transfer-a-b-c');
    expect(roleSessionNameOf('x'.repeat(100))).toHaveLength(64);
  });
});
