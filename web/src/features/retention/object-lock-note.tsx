import { Alert, Text } from '@mantine/core';
import type { ObjectLockFacts } from '#shared/contract/entities/account-data.ts';

const MODE_WORDS: Record<ObjectLockFacts['mode'], string> = {
  COMPLIANCE: 'compliance mode: nobody, not even your provider, can shorten a lock once set',
  GOVERNANCE: 'governance mode: only a specially privileged administrator of your provider can shorten a lock',
};

/**
 * Why a shorter recordings period does not reach recordings already stored: each recording's object is locked until
 * its retention date when it is written, and a lock in compliance mode cannot be shortened by anyone. `facts` is what
 * the server says of this portal's storage (its lock mode), when it says it.
 */
export function ObjectLockNote({ facts, compact = false }: { facts?: ObjectLockFacts | undefined; compact?: boolean }) {
  return (
    <Alert
      color="blue"
      variant="light"
      title={compact ? 'Existing recordings keep their lock' : 'Shortening applies to new recordings only under compliance-mode Object Lock'}
    >
      {facts === undefined ? (
        <Text size="sm">
          Shortening how long recordings are kept applies to <strong>new recordings only</strong> when the payload store uses S3 Object Lock in{' '}
          <strong>compliance mode</strong>: each stored recording stays locked until the retention date it was written with, and that lock cannot be
          shortened. Lengthening a period, or adding a legal hold, does reach existing recordings.
        </Text>
      ) : (
        <>
          <Text size="sm">{facts.message}</Text>
          <Text size="sm" mt={4} data-testid="object-lock-mode">
            This portal&apos;s recordings are locked in {MODE_WORDS[facts.mode]}.
          </Text>
        </>
      )}
    </Alert>
  );
}
