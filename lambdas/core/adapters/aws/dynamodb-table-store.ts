import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  ConditionFailedError,
  type ItemKey,
  type QuerySpec,
  type TableItem,
  type TableStore,
  type TransactOperation,
  type UpdateSpec,
  type WriteCondition,
} from '../../ports/table-store.ts';
import { TABLE_KEYS } from '../../store/table-definition.ts';
import { ItemTooLargeError, UnstorableNumberError } from '../../errors.ts';
import { currentCapacityMeter, type CapacityMeter, type CapacityUsage } from '../../ports/capacity-meter.ts';
import { itemSize, largestAttribute, valueSize } from '#shared/contract/item-size.ts';

/** Expression parts with their placeholder maps, merged into one command. */
interface Expression {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

const keyOf = (key: ItemKey): ItemKey => ({ pk: key.pk, sk: key.sk });

/** A condition as DynamoDB expression parts (undefined when there is none). */
export function conditionExpression(condition: WriteCondition | undefined): Expression | undefined {
  if (condition === undefined) return undefined;
  switch (condition.kind) {
    case 'item-exists':
      return { expression: 'attribute_exists(#ck)', names: { '#ck': TABLE_KEYS.partitionKey }, values: {} };
    case 'item-not-exists':
      return { expression: 'attribute_not_exists(#ck)', names: { '#ck': TABLE_KEYS.partitionKey }, values: {} };
    case 'expression':
      return { expression: condition.expression, names: condition.names ?? {}, values: condition.values ?? {} };
  }
}

/**
 * SET / ADD / REMOVE clauses with generated placeholders (`#f0`, `:f0`, …). Callers' condition placeholders must
 * not use the `f<n>` names. Key attributes cannot be updated (DynamoDB refuses; we say so first).
 */
export function updateExpression(update: UpdateSpec): Expression {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  let index = 0;
  const name = (attribute: string) => {
    if (attribute === TABLE_KEYS.partitionKey || attribute === TABLE_KEYS.sortKey) {
      throw new Error(`Key attribute ${attribute} cannot be updated`);
    }
    const placeholder = `#f${index}`;
    names[placeholder] = attribute;
    return placeholder;
  };
  const set = Object.entries(update.set ?? {}).map(([attribute, value]) => {
    const clause = `${name(attribute)} = :f${index}`;
    values[`:f${index}`] = value;
    index += 1;
    return clause;
  });
  const add = Object.entries(update.add ?? {}).map(([attribute, value]) => {
    const clause = `${name(attribute)} :f${index}`;
    values[`:f${index}`] = value;
    index += 1;
    return clause;
  });
  const remove = (update.remove ?? []).map((attribute) => {
    const clause = name(attribute);
    index += 1;
    return clause;
  });
  if (set.length > 0) clauses.push(`SET ${set.join(', ')}`);
  if (add.length > 0) clauses.push(`ADD ${add.join(', ')}`);
  if (remove.length > 0) clauses.push(`REMOVE ${remove.join(', ')}`);
  if (clauses.length === 0) throw new Error('An update needs at least one SET, ADD or REMOVE');
  return { expression: clauses.join(' '), names, values };
}

/** The KeyConditionExpression for a Query on the table or an index. */
export function keyConditionExpression(query: QuerySpec): Expression {
  const index = query.index === undefined ? undefined : TABLE_KEYS.indexes.find((entry) => entry.name === query.index);
  if (query.index !== undefined && index === undefined) throw new Error(`Unknown index ${query.index}`);
  const names: Record<string, string> = {
    '#p': index?.partitionKey ?? TABLE_KEYS.partitionKey,
  };
  const values: Record<string, unknown> = { ':p': query.partition };
  let expression = '#p = :p';
  if (query.sort !== undefined) {
    names['#s'] = index?.sortKey ?? TABLE_KEYS.sortKey;
    if ('beginsWith' in query.sort) {
      expression += ' AND begins_with(#s, :s)';
      values[':s'] = query.sort.beginsWith;
    } else {
      expression += ' AND #s BETWEEN :s0 AND :s1';
      values[':s0'] = query.sort.between[0];
      values[':s1'] = query.sort.between[1];
    }
  }
  return { expression, names, values };
}

/** Merges placeholder maps; DynamoDB refuses an empty ExpressionAttributeValues, so it is left out when empty. */
function attributes(...parts: Array<Expression | undefined>) {
  const names = Object.assign({}, ...parts.map((part) => part?.names ?? {})) as Record<string, string>;
  const values = Object.assign({}, ...parts.map((part) => part?.values ?? {})) as Record<string, unknown>;
  return {
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
    return reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
  }
  return false;
}

const ITEM_TOO_LARGE = /item size (to update )?has exceeded the maximum allowed size/i;
/** DynamoDB's number range errors, and the document client's refusal to marshal an unsafe or special number. */
const UNSTORABLE_NUMBER = /^Number (overflow|underflow)|^Number .+ is (greater|less) than Number\.(MAX|MIN)_SAFE_INTEGER|^Special numeric value/;

/** The error's own message and those of a cancelled transaction's reasons. */
function messagesOf(error: unknown): string[] {
  const message = (error as { message?: unknown } | null)?.message;
  const reasons = (error as { CancellationReasons?: Array<{ Message?: unknown }> } | null)?.CancellationReasons ?? [];
  return [message, ...reasons.map((reason) => reason.Message)].filter((text): text is string => typeof text === 'string');
}

/**
 * DynamoDB's refusals that the request caused, as typed errors: a failed condition (409), an item over the 400 KB
 * limit, alone or in a transaction (413, naming the largest attribute of what was written), a number it cannot hold
 * (400). Anything else is a fault and stays as it is (500).
 */
async function translate<T>(operation: () => Promise<T>, written: () => Array<Record<string, unknown>>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isConditionFailure(error)) throw new ConditionFailedError('Conflict');
    const messages = messagesOf(error);
    if (messages.some((message) => ITEM_TOO_LARGE.test(message))) throw new ItemTooLargeError(largestOf(written()), { cause: error });
    if (messages.some((message) => UNSTORABLE_NUMBER.test(message))) throw new UnstorableNumberError({ cause: error });
    throw error;
  }
}

/** The attribute that takes the most room among everything written (what most likely made an item too big). */
function largestOf(values: Array<Record<string, unknown>>): string | undefined {
  let largest: { name: string; size: number } | undefined;
  for (const value of values) {
    const name = largestAttribute(value);
    if (name === undefined) continue;
    const size = valueSize(value[name]);
    if (largest === undefined || size > largest.size) largest = { name, size };
  }
  return largest?.name;
}

/** What one transaction operation writes (a put's item, an update's values; nothing for a delete or check). */
function writtenBy(operation: TransactOperation): Record<string, unknown> {
  if (operation.kind === 'put') return operation.item;
  if (operation.kind === 'update') return { ...operation.update.set, ...operation.update.add };
  return {};
}

/** DynamoDB's report of what one call consumed (one object, or one per table for batches and transactions). */
interface ConsumedCapacityReport {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

function unitsOf(consumed: ConsumedCapacityReport | ConsumedCapacityReport[] | undefined, kind: 'read' | 'write'): number {
  const reports = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
  return reports.reduce((total, report) => total + ((kind === 'read' ? report.ReadCapacityUnits : report.WriteCapacityUnits) ?? report.CapacityUnits ?? 0), 0);
}

const bytesOf = (items: ReadonlyArray<Record<string, unknown>>): number => items.reduce((total, item) => total + itemSize(item), 0);

/**
 * Asks DynamoDB what a call consumed only when a meter is in scope (a request, a job, a bench), and adds the answer
 * to it; a call that fails is counted as failed (DynamoDB reports no capacity with an error, though a refused write
 * condition is billed).
 */
async function metered<T>(
  call: (returnConsumed: { ReturnConsumedCapacity?: 'TOTAL' }) => Promise<T>,
  usage: (result: T) => CapacityUsage,
): Promise<T> {
  const meter: CapacityMeter | undefined = currentCapacityMeter();
  if (meter === undefined) return call({});
  try {
    const result = await call({ ReturnConsumedCapacity: 'TOTAL' });
    meter.record({ calls: 1, ...usage(result) });
    return result;
  } catch (error) {
    meter.record({ calls: 1, failedCalls: 1 });
    throw error;
  }
}

const BATCH_GET_LIMIT = 100;
const BATCH_RETRIES = 5;

/**
 * TableStore on DynamoDB through the document client: the same adapter in AWS and against DynamoDB Local
 * (the composition root sets the endpoint).
 */
export function createDynamoTableStore(client: DynamoDBDocumentClient, tableName: string): TableStore {
  const transactItem = (operation: TransactOperation) => {
    const condition = conditionExpression(operation.condition);
    switch (operation.kind) {
      case 'put':
        return {
          Put: { TableName: tableName, Item: operation.item, ConditionExpression: condition?.expression, ...attributes(condition) },
        };
      case 'update': {
        const update = updateExpression(operation.update);
        return {
          Update: {
            TableName: tableName,
            Key: keyOf(operation.key),
            UpdateExpression: update.expression,
            ConditionExpression: condition?.expression,
            ...attributes(update, condition),
          },
        };
      }
      case 'delete':
        return {
          Delete: { TableName: tableName, Key: keyOf(operation.key), ConditionExpression: condition?.expression, ...attributes(condition) },
        };
      case 'check':
        return {
          ConditionCheck: {
            TableName: tableName,
            Key: keyOf(operation.key),
            ConditionExpression: (condition as Expression).expression,
            ...attributes(condition),
          },
        };
    }
  };

  return {
    async get(key, options) {
      const result = await metered(
        (returnConsumed) => client.send(new GetCommand({ TableName: tableName, Key: keyOf(key), ConsistentRead: options?.consistent, ...returnConsumed })),
        (answer) => ({ readUnits: unitsOf(answer.ConsumedCapacity, 'read'), itemsRead: answer.Item ? 1 : 0, bytesRead: answer.Item ? itemSize(answer.Item) : 0 }),
      );
      return result.Item as TableItem | undefined;
    },
    async put(item, options) {
      const condition = conditionExpression(options?.condition);
      await translate(
        () =>
          metered(
            (returnConsumed) => client.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: condition?.expression, ...attributes(condition), ...returnConsumed })),
            (answer) => ({ writeUnits: unitsOf(answer.ConsumedCapacity, 'write'), itemsWritten: 1, bytesWritten: itemSize(item) }),
          ),
        () => [item],
      );
    },
    async update(key, update, options) {
      const expression = updateExpression(update);
      const condition = conditionExpression(options?.condition);
      const result = await translate(
        () =>
          metered(
            (returnConsumed) =>
              client.send(
                new UpdateCommand({
                  TableName: tableName,
                  Key: keyOf(key),
                  UpdateExpression: expression.expression,
                  ConditionExpression: condition?.expression,
                  ReturnValues: 'ALL_NEW',
                  ...attributes(expression, condition),
                  ...returnConsumed,
                }),
              ),
            // DynamoDB bills an update by the whole item's size: the item after it (ALL_NEW) says what that is.
            (answer) => ({ writeUnits: unitsOf(answer.ConsumedCapacity, 'write'), itemsWritten: 1, bytesWritten: itemSize(answer.Attributes ?? { ...update.set, ...update.add }) }),
          ),
        () => [{ ...update.set, ...update.add }],
      );
      return result.Attributes as TableItem | undefined;
    },
    async delete(key, options) {
      const condition = conditionExpression(options?.condition);
      await translate(
        () =>
          metered(
            (returnConsumed) => client.send(new DeleteCommand({ TableName: tableName, Key: keyOf(key), ConditionExpression: condition?.expression, ...attributes(condition), ...returnConsumed })),
            (answer) => ({ writeUnits: unitsOf(answer.ConsumedCapacity, 'write'), itemsWritten: 1 }),
          ),
        () => [],
      );
    },
    async query(query) {
      const keyCondition = keyConditionExpression(query);
      const result = await metered(
        (returnConsumed) =>
          client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: query.index,
              KeyConditionExpression: keyCondition.expression,
              ScanIndexForward: !query.descending,
              Limit: query.limit,
              ExclusiveStartKey: query.startKey,
              ConsistentRead: query.consistent,
              ...attributes(keyCondition),
              ...returnConsumed,
            }),
          ),
        (answer) => ({
          readUnits: unitsOf(answer.ConsumedCapacity, 'read'),
          itemsRead: answer.ScannedCount ?? answer.Count ?? 0,
          bytesRead: bytesOf(answer.Items ?? []),
        }),
      );
      return {
        items: (result.Items ?? []) as TableItem[],
        ...(result.LastEvaluatedKey ? { lastKey: result.LastEvaluatedKey as Record<string, string> } : {}),
      };
    },
    async transactWrite(operations) {
      if (operations.length === 0) return;
      if (operations.length > 100) throw new Error('A transaction holds at most 100 operations');
      await translate(
        () =>
          metered(
            (returnConsumed) => client.send(new TransactWriteCommand({ TransactItems: operations.map(transactItem), ...returnConsumed })),
            (answer) => ({
              writeUnits: unitsOf(answer.ConsumedCapacity, 'write'),
              itemsWritten: operations.filter((operation) => operation.kind !== 'check').length,
              bytesWritten: operations.reduce((total, operation) => total + itemSize(writtenBy(operation)), 0),
            }),
          ),
        () => operations.map(writtenBy),
      );
    },
    async batchGet(keys, options) {
      const found: TableItem[] = [];
      for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
        let pending: Record<string, unknown>[] = keys.slice(start, start + BATCH_GET_LIMIT).map((key) => ({ ...keyOf(key) }));
        for (let attempt = 0; pending.length > 0; attempt += 1) {
          if (attempt > BATCH_RETRIES) throw new Error('BatchGet left keys unprocessed after retries');
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
          const result = await metered(
            (returnConsumed) =>
              client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...(options?.consistent === true ? { ConsistentRead: true } : {}) } }, ...returnConsumed })),
            (answer) => {
              const items = answer.Responses?.[tableName] ?? [];
              return { readUnits: unitsOf(answer.ConsumedCapacity, 'read'), itemsRead: items.length, bytesRead: bytesOf(items) };
            },
          );
          found.push(...((result.Responses?.[tableName] ?? []) as TableItem[]));
          pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
        }
      }
      return found;
    },
  };
}
