import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '#core/store/table-definition.ts';

export interface VerityTableProps {
  /** Customer managed key encrypting the table at rest. */
  readonly encryptionKey: IKey;
}

/**
 * The one DynamoDB table (DESIGN.md §5). Keys, indexes and the TTL attribute come from `TABLE_KEYS`, the
 * module the store code and the local stack also import, so the deployed table cannot drift from the code.
 *
 * Every attribute is a string key: items carry `C#<client>#…` values in all key attributes.
 */
export class VerityTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: VerityTableProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.encryptionKey,
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      // New activity records reach the audit sequencer through the stream (lib/stacks/jobs-stack.ts); the new image
      // carries the entity and client the trigger's filter and the sequencer read.
      stream: StreamViewType.NEW_IMAGE,
      // Compliance records: a stack deletion must never take the data with it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE_KEYS.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        // Lists read whole items from an index; KEYS_ONLY would turn every list page into N extra reads.
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
