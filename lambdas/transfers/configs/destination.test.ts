import { describe, expect, it } from 'vitest';
import { destinationChange, destinationWords } from './destination.ts';

const sftp = (params: Record<string, unknown> = {}) => ({
  target_type: 'SFTP' as const,
  params: { server: 'sftp.example.com', port: 22, root_directory: '/in', username: 'verity', ...params },
});
const s3 = { target_type: 'S3' as const, params: { destination: 's3://bucket/prefix', iam_role_arn: 'arn:aws:iam::123456789012:role/delivery' } };

describe('transfer destination changes', () => {
  it('are a new configuration, or another server, port, user, directory, host key, bucket or role', () => {
    expect(destinationChange(undefined, sftp())).toBe('created');
    expect(destinationChange(sftp(), sftp())).toBeUndefined();
    for (const change of [{ server: 'elsewhere.example' }, { port: 2222 }, { username: 'other' }, { root_directory: '/out' }, { host_key_fingerprint: `SHA256:${'A'.repeat(43)}` }]) {
      expect(destinationChange(sftp(), sftp(change)), JSON.stringify(change)).toBe('changed');
    }
    expect(destinationChange(sftp(), s3)).toBe('changed');
    expect(destinationChange(s3, { ...s3, params: { ...s3.params, iam_role_arn: 'arn:aws:iam::210987654321:role/theirs' } })).toBe('changed');
  });

  it('are worded as the address recordings go to', () => {
    expect(destinationWords(sftp())).toBe('sftp://verity@sftp.example.com:22/in (no host key set)');
    expect(destinationWords(s3)).toBe('s3://bucket/prefix as role arn:aws:iam::123456789012:role/delivery');
  });
});
