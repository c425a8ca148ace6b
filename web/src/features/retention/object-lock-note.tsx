import { Alert, Text } from '@mantine/core';

/**
 * Why a shorter recordings period does not reach recordings already stored: each recording's object is locked until
 * its retention date when it is written, and a lock in compliance mode cannot be shortened by anyone.
 */
export function ObjectLockNote({ compact = false }: { compact?: boolean }) {
  const text = (
    <>
      Shortening how long recordings are kept applies to <strong>new recordings only</strong> when the payload store uses S3 Object Lock in{' '}
      <strong>compliance mode</strong>: each stored recording stays locked until the retention date it was written with, and nobody, not even your
      provider, can shorten that lock. Lengthening a period, or adding a legal hold, does reach existing recordings.
    </>
  );
  if (compact) {
    return (
      <Alert color="blue" variant="light" title="Existing recordings keep their lock">
        <Text size="sm">{text}</Text>
      </Alert>
    );
  }
  return (
    <Alert color="blue" variant="light" title="Shortening applies to new recordings only under compliance-mode Object Lock">
      <Text size="sm">{text}</Text>
    </Alert>
  );
}
