/**
 * The one DynamoDB table's key attributes and indexes. The CDK data stack, the local stack's table creation
 * and the store module all import this, so the deployed table and the code cannot drift.
 *
 * Every key value starts with the tenant (`C#<client>#…`), so no Query can cross a tenant (DESIGN.md §5).
 * The access patterns each index serves are listed in docs/data-model.md. gsi1 to gsi3 are generic (an item opts into
 * a list by carrying a pair of their keys); an index added since is named after what it holds.
 */

/**
 * Processed recordings per tenant by processing time (sparse: a payload carries its keys only while it is Processed),
 * so a transfer reads its window of processing time and nothing older (lambdas/transfers/job/selection.ts).
 */
export const BY_PROCESSED_AT = { name: 'byProcessedAt', partitionKey: 'by_processed_at_pk', sortKey: 'by_processed_at_sk' } as const;

/**
 * A device's messages per conversation by message time (sparse: only a message payload with a `thread_id` carries its
 * keys), so an SMS thread is one Query of its own messages and nothing else of the device (lambdas/payloads/
 * payload-lists.ts).
 */
export const BY_THREAD = { name: 'byThread', partitionKey: 'by_thread_pk', sortKey: 'by_thread_sk' } as const;

export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** The attribute naming the entity type of every item. */
  entityAttribute: 'entity',
  /** Attribute holding an epoch-seconds expiry, for DynamoDB TTL. */
  ttlAttribute: 'expires_at_epoch',
  // Add an index at the end, one per deployment: CloudFormation creates at most one GSI per table update
  // (docs/deploying.md, "Adding an index"); a table holds at most 20.
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    BY_PROCESSED_AT,
    BY_THREAD,
  ],
} as const;

export type IndexName = (typeof TABLE_KEYS.indexes)[number]['name'];
