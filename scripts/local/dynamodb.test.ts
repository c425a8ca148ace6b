import { CreateTableCommand, DescribeTableCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { ensureTable, JAVA_MISSING_MESSAGE, startDynamo } from './dynamodb.ts';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe('startDynamo', () => {
  it('fails with the install hint when java is not on the PATH', async () => {
    process.env.PATH = '/nonexistent';
    await expect(startDynamo({})).rejects.toThrow(JAVA_MISSING_MESSAGE);
    expect(JAVA_MISSING_MESSAGE).toBe(
      'Java 17 is required for DynamoDB Local: sudo apt-get install -y openjdk-17-jre-headless',
    );
  });
});

describe('ensureTable', () => {
  it('gives a table made before an index was added that index, and keeps its items', { timeout: 120_000 }, async () => {
    const dynamo = await startDynamo({});
    try {
      const [older, added] = [TABLE_KEYS.indexes.slice(0, -1), TABLE_KEYS.indexes.at(-1)];
      expect(added?.name).toBe('byThread');
      // The table as the local stack made it before byThread: the generic indexes and byProcessedAt.
      await dynamo.client.send(
        new CreateTableCommand({
          TableName: 'older',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: ['pk', 'sk', ...older.flatMap((index) => [index.partitionKey, index.sortKey])].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: older.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          })),
        }),
      );
      await dynamo.client.send(new PutItemCommand({ TableName: 'older', Item: { pk: { S: 'C#acme#X' }, sk: { S: 'X' }, by_thread_pk: { S: 'C#acme#T' }, by_thread_sk: { S: '2026-01-01T00:00:00.000Z#x' } } }));

      await ensureTable(dynamo.client, 'older');

      const table = (await dynamo.client.send(new DescribeTableCommand({ TableName: 'older' }))).Table;
      expect(table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(TABLE_KEYS.indexes.map((index) => index.name).sort());
      const listed = await dynamo.client.send(
        new QueryCommand({
          TableName: 'older',
          IndexName: 'byThread',
          KeyConditionExpression: 'by_thread_pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'C#acme#T' } },
        }),
      );
      expect(listed.Items?.map((item) => item.pk?.S)).toEqual(['C#acme#X']);
      // Run again: nothing to add, nothing refused.
      await ensureTable(dynamo.client, 'older');
    } finally {
      await dynamo.stop();
    }
  });
});
