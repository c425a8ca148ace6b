import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnKey } from 'aws-cdk-lib/aws-kms';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.ts';
import { keyPolicyOfAccount } from '../constructs/second-copy.ts';

export interface ReplicationKeyStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * The primary of the multi-Region key that encrypts the second copy. Its own stack, deployed first: the replica stack
 * replicates it into the second region, and the data stack (deployed after the replica stack, whose buckets its
 * replication rules name) encrypts replicas with that copy. In the data stack it would make the two depend on each other.
 */
export class ReplicationKeyStack extends Stack {
  readonly key: CfnKey;

  constructor(scope: Construct, id: string, props: ReplicationKeyStackProps) {
    super(scope, id, props);
    this.key = new CfnKey(this, 'ReplicaDataKey', {
      description: `Verity ${props.config.stage}: the second copy of recordings and table backups (multi-Region)`,
      multiRegion: true,
      enableKeyRotation: true,
      keyPolicy: keyPolicyOfAccount(),
    });
    // Compliance copies: a stack deletion must never schedule the key of the second copy for deletion.
    this.key.applyRemovalPolicy(RemovalPolicy.RETAIN);
    // CDK's cross-region reference writer (the key's ARN, read by the replica stack) is its own Lambda-backed resource.
    NagSuppressions.addStackSuppressions(this, [
      { id: 'AwsSolutions-IAM4', reason: "CDK's cross-region reference writer uses AWSLambdaBasicExecutionRole for its own logs; the role is not configurable." },
      { id: 'AwsSolutions-L1', reason: "CDK's cross-region reference writer runtime is chosen by aws-cdk-lib and moves with its upgrades." },
      { id: 'AwsSolutions-IAM5', reason: "CDK's cross-region reference writer writes the SSM parameters of this stage's exports under /cdk/exports/." },
    ]);
  }
}
