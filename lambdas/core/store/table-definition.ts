/**
 * The one DynamoDB table's key attributes and indexes. The CDK data stack, the local stack's table creation
 * and the store module all import this, so the deployed table and the code cannot drift.
 *
 * Every key value starts with the tenant (`C#<client>#…`), so no Query can cross a tenant (DESIGN.md §5).
 * Index names say which attributes they key on; the access patterns each serves are listed in docs/data-model.md.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** The attribute naming the entity type of every item. */
  entityAttribute: 'entity',
  /** Attribute holding an epoch-seconds expiry, for DynamoDB TTL. */
  ttlAttribute: 'expires_at_epoch',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

export type IndexName = (typeof TABLE_KEYS.indexes)[number]['name'];
