import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config.ts';
import type { TableStore } from '../../ports/table-store.ts';
import { createDynamoTableStore } from '../aws/dynamodb-table-store.ts';
import { STAND_IN_CREDENTIALS } from './stand-in-credentials.ts';

/** The function's table: DynamoDB in AWS, DynamoDB Local by endpoint (with stand-in credentials) locally. */
export function dynamoTableOf(config: Config): TableStore {
  const dynamo = new DynamoDBClient({
    region: config.AWS_REGION,
    ...(config.DYNAMODB_ENDPOINT ? { endpoint: config.DYNAMODB_ENDPOINT, credentials: STAND_IN_CREDENTIALS } : {}),
  });
  const documents = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return createDynamoTableStore(documents, config.TABLE_NAME);
}
