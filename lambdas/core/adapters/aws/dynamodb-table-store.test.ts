import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError, ItemTooLargeError, toErrorResponse, UnstorableNumberError } from '../../errors.ts';
import { ConditionFailedError } from '../../ports/table-store.ts';
import { conditionExpression, createDynamoTableStore, keyConditionExpression, updateExpression } from './dynamodb-table-store.ts';

describe('DynamoDB expression builders', () => {
  it('builds SET, ADD and REMOVE with placeholders only', () => {
    expect(updateExpression({ set: { name: 'x', 'odd name': 1 }, add: { device_count: -1 }, remove: ['deactivation_date'] })).toEqual({
      expression: 'SET #f0 = :f0, #f1 = :f1 ADD #f2 :f2 REMOVE #f3',
      names: { '#f0': 'name', '#f1': 'odd name', '#f2': 'device_count', '#f3': 'deactivation_date' },
      values: { ':f0': 'x', ':f1': 1, ':f2': -1 },
    });
  });

  it('refuses empty updates and updates of key attributes', () => {
    expect(() => updateExpression({})).toThrow();
    expect(() => updateExpression({ set: { pk: 'C#globex#X' } })).toThrow(/cannot be updated/);
  });

  it('builds key conditions on the table and on indexes', () => {
    expect(keyConditionExpression({ partition: 'C#acme#ROLES' })).toEqual({ expression: '#p = :p', names: { '#p': 'pk' }, values: { ':p': 'C#acme#ROLES' } });
    expect(keyConditionExpression({ index: 'gsi2', partition: 'P', sort: { beginsWith: '2025-' } })).toEqual({
      expression: '#p = :p AND begins_with(#s, :s)',
      names: { '#p': 'gsi2pk', '#s': 'gsi2sk' },
      values: { ':p': 'P', ':s': '2025-' },
    });
    expect(keyConditionExpression({ partition: 'P', sort: { between: ['a', 'b'] } }).expression).toBe('#p = :p AND #s BETWEEN :s0 AND :s1');
  });

  it('spells existence conditions on the partition key', () => {
    expect(conditionExpression({ kind: 'item-not-exists' })).toEqual({ expression: 'attribute_not_exists(#ck)', names: { '#ck': 'pk' }, values: {} });
    expect(conditionExpression(undefined)).toBeUndefined();
  });
});

describe('DynamoDB table store', () => {
  const documents = mockClient(DynamoDBDocumentClient);
  const store = createDynamoTableStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-2' })), 'verity');
  beforeEach(() => documents.reset());

  it('turns a failed condition into ConditionFailedError', async () => {
    documents.on(PutCommand).rejects(Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' }));
    await expect(store.put({ pk: 'C#acme#ROLES', sk: 'ROLE#a', entity: 'Role' }, { condition: { kind: 'item-not-exists' } })).rejects.toThrow(ConditionFailedError);
    documents.on(TransactWriteCommand).rejects(
      Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] }),
    );
    await expect(store.transactWrite([{ kind: 'delete', key: { pk: 'a', sk: 'b' } }])).rejects.toThrow(ConditionFailedError);
  });

  it('turns an item over 400 KB into ItemTooLargeError (413) naming the largest attribute, alone or in a transaction', async () => {
    const tooLarge = Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
    documents.on(PutCommand).rejects(tooLarge);
    const item = { pk: 'C#acme#TAGS', sk: 'TAG#k', entity: 'TagDefinition', tag_values: ['v'.repeat(300)], description: 'd'.repeat(100) };
    const put = await store.put(item).catch((error: unknown) => error);
    expect(put).toBeInstanceOf(ItemTooLargeError);
    expect(put).toMatchObject({ status: 413, attribute: 'tag_values' });
    expect(toErrorResponse(put).body.errors).toEqual([
      'body: Too large to store: the record would exceed the 400 KB item limit (its largest part is tag_values)',
    ]);

    documents.on(UpdateCommand).rejects(Object.assign(new Error('Item size to update has exceeded the maximum allowed size'), { name: 'ValidationException' }));
    await expect(store.update({ pk: 'p', sk: 's' }, { set: { permissions: ['x'.repeat(50)], note: 'n' } })).rejects.toMatchObject({
      status: 413,
      attribute: 'permissions',
    });

    documents.on(TransactWriteCommand).rejects(
      Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'None' }, { Code: 'ValidationError', Message: 'Item size has exceeded the maximum allowed size' }],
      }),
    );
    await expect(
      store.transactWrite([
        { kind: 'put', item: { pk: 'a', sk: 'b', entity: 'Test', small: 'x' } },
        { kind: 'put', item: { pk: 'a', sk: 'c', entity: 'Test', meta: 'm'.repeat(500) } },
      ]),
    ).rejects.toMatchObject({ status: 413, attribute: 'meta' });
  });

  it('turns a number DynamoDB cannot hold into a 400, and leaves other faults as they are', async () => {
    documents.on(PutCommand).rejects(Object.assign(new Error('Number underflow. Attempting to store a number with magnitude smaller than supported range'), { name: 'ValidationException' }));
    await expect(store.put({ pk: 'p', sk: 's', entity: 'Test', n: 1e-200 })).rejects.toBeInstanceOf(UnstorableNumberError);
    // The document client's own refusal to marshal an unsafe number (the integration test meets it for real).
    documents.on(PutCommand).rejects(new Error('Number 1e+308 is greater than Number.MAX_SAFE_INTEGER. Use NumberValue from @aws-sdk/lib-dynamodb.'));
    await expect(store.put({ pk: 'p', sk: 's', entity: 'Test', n: 1e308 })).rejects.toMatchObject({ status: 400 });
    documents.on(PutCommand).rejects(Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' }));
    const fault = await store.put({ pk: 'p', sk: 's', entity: 'Test' }).catch((error: unknown) => error);
    expect(fault).not.toBeInstanceOf(HttpError);
  });

  it('updates with merged placeholders and returns the new item', async () => {
    documents.on(UpdateCommand).resolves({ Attributes: { pk: 'p', sk: 's', entity: 'Group', count: 2 } });
    const item = await store.update({ pk: 'p', sk: 's' }, { add: { count: 1 } }, { condition: { kind: 'item-exists' } });
    expect(item?.count).toBe(2);
    expect(documents.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      UpdateExpression: 'ADD #f0 :f0',
      ConditionExpression: 'attribute_exists(#ck)',
      ExpressionAttributeNames: { '#f0': 'count', '#ck': 'pk' },
      ExpressionAttributeValues: { ':f0': 1 },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('queries an index and hands back the last key', async () => {
    documents.on(QueryCommand).resolves({ Items: [{ pk: 'a', sk: 'b', entity: 'Device' }], LastEvaluatedKey: { pk: 'a', sk: 'b' } });
    const page = await store.query({ index: 'gsi1', partition: 'C#acme#DEVICES', limit: 1, descending: true });
    expect(page).toEqual({ items: [{ pk: 'a', sk: 'b', entity: 'Device' }], lastKey: { pk: 'a', sk: 'b' } });
    expect(documents.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({ IndexName: 'gsi1', ScanIndexForward: false, Limit: 1 });
  });

  it('batches gets by 100 and retries unprocessed keys', async () => {
    documents
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { verity: [{ pk: '0', sk: 's', entity: 'Device' }] }, UnprocessedKeys: { verity: { Keys: [{ pk: '1', sk: 's' }] } } })
      .resolves({ Responses: { verity: [{ pk: 'x', sk: 's', entity: 'Device' }] } });
    const keys = Array.from({ length: 150 }, (_, index) => ({ pk: String(index), sk: 's' }));
    const found = await store.batchGet(keys);
    const calls = documents.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(3);
    expect(calls[0]?.args[0].input.RequestItems?.verity?.Keys).toHaveLength(100);
    expect(calls[1]?.args[0].input.RequestItems?.verity?.Keys).toEqual([{ pk: '1', sk: 's' }]);
    expect(calls[2]?.args[0].input.RequestItems?.verity?.Keys).toHaveLength(50);
    expect(found).toHaveLength(3);
  });
});
