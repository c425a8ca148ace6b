import { Code, Group, Loader, Text } from '@mantine/core';
import { formatDate } from '../../lib/format.ts';
import { usePgpKeyInfo } from './pgp-key-info.ts';

/** The pasted key's fingerprint, for the receiver to compare with `gpg --fingerprint` before trusting deliveries. */
export function PgpKeySummary({ armored }: { armored: string }) {
  const info = usePgpKeyInfo(armored);
  if (armored.trim() === '') {
    return (
      <Text size="sm" c="dimmed" mt="xs">
        No key: files are delivered without PGP encryption.
      </Text>
    );
  }
  if (!info.enabled) return null;
  if (info.isLoading) {
    return (
      <Group gap="xs" mt="xs">
        <Loader size="xs" aria-label="Reading the key" />
        <Text size="sm">Reading the key…</Text>
      </Group>
    );
  }
  if (info.data === undefined) {
    return (
      <Text size="sm" c="red" mt="xs" role="status">
        This block cannot be read as a PGP public key.
      </Text>
    );
  }
  const key = info.data;
  return (
    <div aria-label="PGP key" role="group">
      <Group gap="xs" mt="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          Fingerprint
        </Text>
        <Code data-testid="pgp-fingerprint">{key.fingerprint}</Code>
      </Group>
      <Text size="sm" c="dimmed">
        {[key.userId, key.algorithm, key.expiresAt === undefined ? 'never expires' : `expires ${formatDate(key.expiresAt)}`].filter(Boolean).join(' · ')}
      </Text>
    </div>
  );
}
