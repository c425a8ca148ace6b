import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { LEGAL_HOLD_TARGET_LABELS } from '../../lib/labels.ts';
import { useReleaseLegalHold } from './api/release-legal-hold.ts';
import { coverageLines } from './hold-model.ts';

/**
 * The confirmation before a release: what becomes disposable again (what the hold covers, where no other hold still
 * does), and that the next retention run may then delete what is past its period.
 */
export function ReleaseHoldDialog({ hold, onDone }: { hold: LegalHold; onDone: () => void }) {
  const release = useReleaseLegalHold();
  const who = `${LEGAL_HOLD_TARGET_LABELS[hold.target_type].toLowerCase()} ${hold.target}`;
  const covered = coverageLines(hold);
  return (
    <Stack>
      <Text size="sm">
        Releasing the hold on <strong>{who}</strong> makes what it alone protects <strong>disposable again</strong>: at the next retention run, whatever is
        past its retention period may be deleted, and later destroyed.
      </Text>
      {covered.length > 0 ? (
        <div>
          <Text size="sm" fw={600}>
            This hold covers
          </Text>
          <List size="sm">
            {covered.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </div>
      ) : (
        <Text size="sm">
          {hold.target_type === 'DeviceUser'
            ? 'It covers their recordings, GPS fixes and device logs, and what the devices they hold now recorded.'
            : 'It covers what this person wrote: comments and receipts.'}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        Anything another active hold also covers stays held. The released hold is kept on record.
      </Text>
      <Text size="sm" c="dimmed">
        The hold stays in force until a second person who may release holds approves the release.
      </Text>
      {release.error && (
        <Alert color="red" title="The hold was not released">
          {release.error.message}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Keep the hold
        </Button>
        <Button
          color="red.9"
          loading={release.isPending}
          onClick={() =>
            release.mutate(
              { params: { target_type: hold.target_type, target: hold.target } },
              {
                onSuccess: (answer) => {
                  // An active hold's release waits for a second approver (four eyes): it answers the pending change.
                  notifySaved('approval_reference' in answer ? `Release of the hold on ${who} requested: it applies when a second person approves it.` : `Legal hold on ${who} released.`);
                  onDone();
                },
              },
            )
          }
        >
          Release hold
        </Button>
      </Group>
    </Stack>
  );
}
