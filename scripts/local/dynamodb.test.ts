import { afterEach, describe, expect, it } from 'vitest';
import { JAVA_MISSING_MESSAGE, startDynamo } from './dynamodb.ts';

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
