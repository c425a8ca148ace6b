import { describe, expect, it } from 'vitest';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { formErrorsOf } from '../../lib/form-errors.ts';
import { checkConfigForm, CONFIG_FIELD_PATHS, configFormValuesOf, EMPTY_CONFIG_FORM, type ConfigFormValues } from './config-form-model.ts';

const NOTHING_STORED = { zipPassword: false, sftpPassword: false };
const NOW = new Date('2026-11-24T13:00:00.000Z');

const SFTP: ConfigFormValues = {
  ...EMPTY_CONFIG_FORM,
  reference: 'Nightly archive',
  server: 'sftp.example.com',
  port: '2222',
  rootDirectory: '/exports',
  username: 'verity',
  hostKeyFingerprint: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
  sftpPassword: 'secret-1',
  payloadTypes: ['Call', 'SMS'],
  schedule: 'cron(0 2 * * ? *)',
};

describe('transfer configuration form check', () => {
  it('builds the SFTP request: only its params, the port a number, the password given', () => {
    const checked = checkConfigForm(SFTP, NOTHING_STORED, NOW);
    expect(checked).toEqual({
      ok: true,
      reference: 'Nightly archive',
      body: {
        target_type: 'SFTP',
        transfer_type: 'Payload',
        payload_types: ['Call', 'SMS'],
        schedule: 'cron(0 2 * * ? *)',
        transfer_file_format: 'Zipped',
        is_active: true,
        params: {
          server: 'sftp.example.com',
          port: 2222,
          root_directory: '/exports',
          username: 'verity',
          host_key_fingerprint: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
        },
        secured_data: { sftp_password: 'secret-1' },
      },
    });
  });

  it('sends no secret that is not typed (the stored one is kept) and none the target or format does not use', () => {
    const s3 = { ...SFTP, targetType: 'S3' as const, destination: 's3://archive-bucket/verity/', iamRoleArn: 'arn:aws:iam::123456789012:role/VerityExport' };
    const checked = checkConfigForm({ ...s3, sftpPassword: 'left over', zipPassword: 'unused' }, NOTHING_STORED, NOW);
    expect(checked.ok && checked.body).toMatchObject({ params: { destination: 's3://archive-bucket/verity/' } });
    expect(checked.ok && 'secured_data' in checked.body).toBe(false);
    const kept = checkConfigForm({ ...SFTP, sftpPassword: '' }, { zipPassword: false, sftpPassword: true }, NOW);
    expect(kept.ok && 'secured_data' in kept.body).toBe(false);
  });

  it('puts every problem under its field: contract messages, EventBridge schedule rules, missing secrets', () => {
    const checked = checkConfigForm(
      { ...SFTP, reference: 'x', rootDirectory: 'exports', hostKeyFingerprint: 'MD5:ab', port: '70000', payloadTypes: [], schedule: 'cron(0 2 * * * *)', sftpPassword: '', format: 'ZippedWithPassword' },
      NOTHING_STORED,
      NOW,
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const errors = formErrorsOf(checked.lines, CONFIG_FIELD_PATHS);
    expect(errors.field.reference).toBeDefined();
    expect(errors.field.rootDirectory).toBeDefined();
    expect(errors.field.hostKeyFingerprint).toMatch(/ssh-keygen -l/);
    expect(errors.field.port).toBeDefined();
    expect(errors.field.payloadTypes).toBeDefined();
    expect(errors.field.schedule).toMatch(/Exactly one of day-of-month/);
    expect(errors.field.sftpPassword).toBe('The sftp_password field is required.');
    expect(errors.field.zipPassword).toBe('The zip_password field is required.');
    expect(errors.general).toEqual([]);
  });

  it('reads a saved configuration back into the form with empty secret fields', () => {
    const saved: TransferConfig = {
      transfer_config_reference: 'Nightly archive',
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call'],
      schedule: 'rate(1 day)',
      transfer_file_format: 'Uncompressed',
      params: { server: 'sftp.example.com', port: 22, root_directory: '/in', username: 'verity' },
      is_active: false,
      has_sftp_password: true,
    };
    expect(configFormValuesOf(saved)).toMatchObject({ port: '22', rootDirectory: '/in', isActive: false, sftpPassword: '', schedule: 'rate(1 day)' });
  });
});
