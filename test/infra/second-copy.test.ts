import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_RETENTION_DAYS } from '../../lib/config/replica-names.ts';
import { parseStageConfig } from '../../lib/config/stage-config.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { FIXTURE_ENDPOINTS } from './fixtures.ts';
import { synthApp } from './synth.ts';

const apiOrigin = {
  domainName: 'api.verity.example.com',
  certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
  truststoreUri: 's3://verity-truststore/ca.pem',
  clientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0123abcd-0123-0123-0123-0123456789ab',
};
// A production stage naming its account and region: its second region is the default pair (eu-west-2 → eu-west-1).
const production = parseStageConfig({
  stage: 'prod',
  authDomainPrefix: 'verity-prod',
  account: '123456789012',
  region: 'eu-west-2',
  apiOrigin,
  payloadObjectLock: { mode: 'COMPLIANCE', days: 30 },
});

let stacks: VerityStacks;
let cleanup: (() => void) | undefined;
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ config: production, endpoints: FIXTURE_ENDPOINTS }));
});
afterAll(() => cleanup?.());

const data = () => Template.fromStack(stacks.data);
const replica = () => {
  if (stacks.replica === undefined) throw new Error('no replica stack');
  return Template.fromStack(stacks.replica);
};

describe('second copy: stage config', () => {
  it('defaults a production stage to its region pair, refuses a same-region or unpinned replica, lets a test stage opt out', () => {
    expect(production.replicaRegion).toBe('eu-west-1');
    expect(() => parseStageConfig({ ...production, replicaRegion: 'eu-west-2' })).toThrow('replicaRegion: must differ from region');
    expect(() => parseStageConfig({ stage: 'dev', authDomainPrefix: 'verity-dev', developmentEdge: true, replicaRegion: 'eu-west-1' })).toThrow(
      "replicaRegion: needs the stage's account and region",
    );
    expect(parseStageConfig({ ...production, replicaRegion: false }).replicaRegion).toBe(false);
  });
});

describe('second copy: S3 replication with Object Lock', () => {
  it('replicates both payload buckets with Replication Time Control and metrics, without delete markers, SSE-KMS objects to the replica key', () => {
    const buckets = data().findResources('AWS::S3::Bucket', { Properties: { ReplicationConfiguration: Match.anyValue() } });
    const destinations = Object.values(buckets).map((bucket) => {
      const rules = (bucket as { Properties: { ReplicationConfiguration: { Rules: Record<string, unknown>[] } } }).Properties.ReplicationConfiguration.Rules;
      expect(rules).toHaveLength(1);
      expect(rules[0]).toMatchObject({
        Status: 'Enabled',
        DeleteMarkerReplication: { Status: 'Disabled' },
        SourceSelectionCriteria: { SseKmsEncryptedObjects: { Status: 'Enabled' } },
        Destination: {
          Account: '123456789012',
          AccessControlTranslation: { Owner: 'Destination' },
          ReplicationTime: { Status: 'Enabled', Time: { Minutes: 15 } },
          Metrics: { Status: 'Enabled', EventThreshold: { Minutes: 15 } },
        },
      });
      return JSON.stringify((rules[0] as { Destination: unknown }).Destination);
    });
    expect(destinations).toHaveLength(2);
    expect(destinations.join()).toContain('verity-prod-raw-copy-123456789012');
    expect(destinations.join()).toContain('verity-prod-processed-copy-123456789012');
    expect(destinations.join()).toContain(':kms:eu-west-1:123456789012:key/');
  });

  it('gives the replication role no delete and decrypts through S3 only', () => {
    const policies = JSON.stringify(data().findResources('AWS::IAM::Policy'));
    expect(policies).toContain('s3:ReplicateObject');
    expect(policies).not.toContain('s3:ReplicateDelete');
    data().hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: 'kms:Decrypt', Condition: { StringEquals: { 'kms:ViaService': Match.anyValue() } } })]),
      },
    });
  });

  it('holds versioned destination buckets in the second region with Object Lock in the same mode and period', () => {
    expect(stacks.replica?.region).toBe('eu-west-1');
    for (const name of ['verity-prod-raw-copy-123456789012', 'verity-prod-processed-copy-123456789012']) {
      replica().hasResourceProperties('AWS::S3::Bucket', {
        BucketName: name,
        VersioningConfiguration: { Status: 'Enabled' },
        ObjectLockEnabled: true,
        ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 30 } } },
        BucketEncryption: { ServerSideEncryptionConfiguration: [Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } })] },
      });
    }
  });
});

describe('second copy: multi-Region key', () => {
  it('makes a multi-Region primary in the stage region and its replica in the second region', () => {
    expect(stacks.replicationKey?.region).toBe('eu-west-2');
    if (stacks.replicationKey === undefined) throw new Error('no key stack');
    Template.fromStack(stacks.replicationKey).hasResourceProperties('AWS::KMS::Key', { MultiRegion: true, EnableKeyRotation: true });
    replica().hasResourceProperties('AWS::KMS::ReplicaKey', { PrimaryKeyArn: Match.anyValue() });
  });
});

describe('second copy: AWS Backup of the table', () => {
  it('backs the table up daily and monthly, each copied to the second region vault for as long', () => {
    data().hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: {
        BackupPlanRule: Match.arrayWith(
          (['daily', 'monthly'] as const).map((rule) =>
            Match.objectLike({
              RuleName: rule,
              Lifecycle: { DeleteAfterDays: BACKUP_RETENTION_DAYS[rule] },
              CopyActions: [
                {
                  DestinationBackupVaultArn: Match.stringLikeRegexp('backup:eu-west-1:123456789012:backup-vault:verity-prod-backup-copies'),
                  Lifecycle: { DeleteAfterDays: BACKUP_RETENTION_DAYS[rule] },
                },
              ],
            }),
          ),
        ),
      },
    });
    expect(BACKUP_RETENTION_DAYS.monthly).toBe(2923);
    data().hasResourceProperties('AWS::Backup::BackupSelection', { BackupSelection: { Resources: [Match.anyValue()] } });
  });

  it('locks both vaults in compliance mode (a grace period to change, then immutable)', () => {
    const lock = { MinRetentionDays: BACKUP_RETENTION_DAYS.daily, ChangeableForDays: 3 };
    data().hasResourceProperties('AWS::Backup::BackupVault', { BackupVaultName: 'verity-prod-backups', LockConfiguration: lock });
    replica().hasResourceProperties('AWS::Backup::BackupVault', { BackupVaultName: 'verity-prod-backup-copies', LockConfiguration: lock });
  });

  it('passes cdk-nag on the second-copy stacks', () => {
    for (const stack of [stacks.data, stacks.replica, stacks.replicationKey]) {
      if (stack === undefined) throw new Error('missing stack');
      expect(Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    }
  });
});

describe('second copy: a stage without a second region', () => {
  it('synthesises no replication, key, backup or replica stack', () => {
    const { stacks: none, cleanup: done } = synthApp({ config: parseStageConfig({ ...production, replicaRegion: false }), endpoints: FIXTURE_ENDPOINTS });
    try {
      expect(none.replica).toBeUndefined();
      expect(none.replicationKey).toBeUndefined();
      const template = Template.fromStack(none.data);
      expect(template.findResources('AWS::S3::Bucket', { Properties: { ReplicationConfiguration: Match.anyValue() } })).toEqual({});
      template.resourceCountIs('AWS::Backup::BackupPlan', 0);
      template.resourceCountIs('AWS::Backup::BackupVault', 0);
    } finally {
      done();
    }
  });
});
