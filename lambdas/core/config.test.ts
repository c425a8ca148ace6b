import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const valid = {
  VERITY_MODE: 'local',
  TABLE_NAME: 'verity',
  AWS_REGION: 'eu-west-2',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
  S3_ENDPOINT: 'http://127.0.0.1:4569',
  RAW_BUCKET: 'verity-raw',
  PROCESSED_BUCKET: 'verity-processed',
  OIDC_ISSUER: 'http://127.0.0.1:3000/oidc',
  OIDC_AUDIENCES: 'portal, admin-portal ,',
  CURSOR_SECRET: 'c'.repeat(32),
  DATA_DIR: '.data',
};

describe('loadConfig', () => {
  it('parses a local environment with defaults', () => {
    const config = loadConfig(valid);
    expect(config.OIDC_AUDIENCES).toEqual(['portal', 'admin-portal']);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.VALIDATE_RESPONSES).toBe(true);
  });

  it('does not validate responses in AWS unless told to', () => {
    const { DATA_DIR: _unused, ...aws } = valid;
    expect(loadConfig({ ...aws, VERITY_MODE: 'aws' }).VALIDATE_RESPONSES).toBe(false);
    expect(loadConfig({ ...aws, VERITY_MODE: 'aws', VALIDATE_RESPONSES: 'true' }).VALIDATE_RESPONSES).toBe(true);
  });

  it('retains payload objects in COMPLIANCE mode in AWS and GOVERNANCE locally, unless told otherwise', () => {
    const { DATA_DIR: _unused, ...aws } = valid;
    expect(loadConfig({ ...aws, VERITY_MODE: 'aws' }).OBJECT_LOCK_MODE).toBe('COMPLIANCE');
    expect(loadConfig(valid).OBJECT_LOCK_MODE).toBe('GOVERNANCE');
    expect(loadConfig({ ...aws, VERITY_MODE: 'aws', OBJECT_LOCK_MODE: 'GOVERNANCE' }).OBJECT_LOCK_MODE).toBe('GOVERNANCE');
    expect(() => loadConfig({ ...valid, OBJECT_LOCK_MODE: 'LEGAL' })).toThrow(/OBJECT_LOCK_MODE/);
  });

  it('names every missing or invalid variable, and never a secret value', () => {
    const { TABLE_NAME: _table, ...rest } = valid;
    const attempt = () =>
      loadConfig({ ...rest, VERITY_MODE: 'cloud', OIDC_ISSUER: 'not a url', CURSOR_SECRET: 'hunter2', OIDC_AUDIENCES: ' , ' });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message).toContain('TABLE_NAME: is required');
    expect(message).toContain('VERITY_MODE:');
    expect(message).toContain('OIDC_ISSUER:');
    expect(message).toContain('OIDC_AUDIENCES:');
    expect(message).toContain('CURSOR_SECRET: must be at least 32 characters');
    expect(message).not.toContain('hunter2');
  });

  it('requires DATA_DIR in local mode', () => {
    const { DATA_DIR: _unused, ...rest } = valid;
    expect(() => loadConfig(rest)).toThrow(/DATA_DIR: is required in local mode/);
  });
});
