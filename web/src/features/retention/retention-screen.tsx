import { Alert, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import type { RetentionPolicy, RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { REGULATORY_RULE_NAMES } from '#shared/constants/regulatory-rules.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS, RETENTION_RECORD_TYPE_LABELS, RETENTION_TIMESTAMP_LABELS } from '../../lib/labels.ts';
import { useCan } from '../../lib/use-can.ts';
import { usePreviewRetention } from './api/preview-retention.ts';
import { useRetentionPolicy } from './api/get-retention.ts';
import { useSaveRetention } from './api/put-retention.ts';
import { ObjectLockNote } from './object-lock-note.tsx';
import { retentionChanges, retentionFieldPaths, retentionRequestOf, retentionValuesOf, shortensRecordings, type RetentionValues } from './retention-model.ts';
import { PayloadTypeTable, RecordTypeTable } from './retention-tables.tsx';
import { ReviewChanges } from './review-changes.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { usePendingChanges } from '../../components/approvals/approvals-api.ts';
import { PendingChangeNote } from '../../components/approvals/pending-change-note.tsx';
import { getRetention } from './api/get-retention.ts';
import { RegulatoryRulesField } from './regulatory-rules-field.tsx';

const LABELS = {
  record: (type: keyof typeof RETENTION_RECORD_TYPE_LABELS) => RETENTION_RECORD_TYPE_LABELS[type],
  payload: (type: keyof typeof PAYLOAD_TYPE_LABELS) => PAYLOAD_TYPE_LABELS[type],
  timestamp: (type: keyof typeof RETENTION_TIMESTAMP_LABELS) => RETENTION_TIMESTAMP_LABELS[type],
};

/** The retention policy: how long each kind of record is kept before it is deleted (restorable) and then destroyed. */
export function RetentionScreen({ history }: { history?: (policy: RetentionPolicy) => ReactNode } = {}) {
  const policy = useRetentionPolicy();
  return (
    <>
      <PageHeader
        title="Retention"
        description="How long each kind of record is kept. After its delete period a record is deleted (it can still be restored); after its destroy period it is destroyed for good. A blank period keeps records without end."
        // What opens the policy's earlier versions (features/history, composed by the route).
        {...(policy.data === undefined || history === undefined ? {} : { actions: history(policy.data) })}
      />
      {policy.isLoading && <Loader size="sm" aria-label="Loading" />}
      {policy.error && !policy.data && (
        <Alert color="red" title="The retention policy could not be loaded">
          {policy.error.message}
        </Alert>
      )}
      {/* Keyed by the stored version: after a save the form starts again from what was stored. */}
      {policy.data && <RetentionEditor key={policy.data.updated_at ?? 'defaults'} policy={policy.data} />}
    </>
  );
}

function RetentionEditor({ policy }: { policy: RetentionPolicy }) {
  const canUpdate = useCan('retention:Update');
  const canPreview = useCan('retention:Preview');
  const stored = useMemo(() => retentionValuesOf(policy), [policy]);
  const [values, setValues] = useState<RetentionValues>(stored);
  const [review, setReview] = useState<{ preview: RetentionPreview | undefined } | undefined>(undefined);
  const preview = usePreviewRetention();
  const save = useSaveRetention();
  const readOnly = !canUpdate.allowed;
  // A shorter period or a removed rule awaiting a second approver (four eyes), shown above the editor.
  const pending = usePendingChanges(useCan('approvals:List').allowed);
  const waiting = (pending.data && 'data' in pending.data ? pending.data.data : []).find((change) => change.kind === 'RetentionPolicyChange');

  const changes = useMemo(() => retentionChanges(stored, values, LABELS), [stored, values]);
  const paths = useMemo(() => retentionFieldPaths(), []);
  const errors = formErrorsFor({ error: save.error ?? preview.error, paths });

  const startReview = () => {
    save.reset();
    if (!canPreview.allowed) {
      setReview({ preview: undefined });
      return;
    }
    preview.mutate({ body: retentionRequestOf(values) }, { onSuccess: (answer) => setReview({ preview: answer }) });
  };

  const confirmSave = () =>
    save.mutate(
      { body: retentionRequestOf(values) },
      {
        onSuccess: (answer) => {
          setReview(undefined);
          if ('approval_reference' in answer) {
            // It shortens something: nothing changed yet, the request waits for a second approver (shown above).
            setValues(stored);
            notifySaved('Shorter retention requested: it applies when a second person who may change the policy approves it.');
            return;
          }
          notifySaved('Retention policy saved. The next retention run applies it.');
        },
        // Refused input goes beside its fields: close the review so they show.
        onError: () => setReview(undefined),
      },
    );

  return (
    <Stack>
      {waiting && <PendingChangeNote change={waiting} what="Shorter retention" title="A retention change awaits a second approver" invalidates={[getRetention]} />}
      <ObjectLockNote facts={policy.object_lock} />
      <Text size="sm" c="dimmed">
        {policy.updated_at
          ? `Last changed ${formatDateTime(policy.updated_at)}${policy.updated_by ? ` by ${actorName(policy.updated_by_actor, policy.updated_by)}` : ''}.`
          : 'Nobody has set a policy yet: these are the defaults, which meet the strictest common rule for each kind of record.'}
        {readOnly && ' Your roles allow reading this policy, not changing it.'}
      </Text>
      {(policy.regulatory_rules ?? []).length > 0 && (
        <Text size="sm" data-testid="regulatory-rules">
          Under {(policy.regulatory_rules ?? []).map((rule) => REGULATORY_RULE_NAMES[rule]).join(', ')}: a period may not be shorter than the floor shown beside its type.
        </Text>
      )}
      <FormErrorSummary lines={errors.general} />
      <Card withBorder padding="md">
        <RegulatoryRulesField value={values.rules} readOnly={readOnly} onChange={(rules) => setValues((previous) => ({ ...previous, rules }))} />
      </Card>
      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="xs">
          Records
        </Title>
        <RecordTypeTable
          values={values.records}
          rules={values.rules}
          errors={errors.field}
          readOnly={readOnly}
          onChange={(type, patch) => setValues((previous) => ({ ...previous, records: { ...previous.records, [type]: { ...previous.records[type], ...patch } } }))}
        />
      </Card>
      <Card withBorder padding="md">
        <Title order={2} size="h4" mb={4}>
          Recordings
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          Per recording type: the time the periods count from, and how many receipts and transfers a recording needs before retention may delete it.
        </Text>
        <PayloadTypeTable
          values={values.payloads}
          rules={values.rules}
          errors={errors.field}
          readOnly={readOnly}
          onChange={(index, patch) =>
            setValues((previous) => ({ ...previous, payloads: previous.payloads.map((entry, at) => (at === index ? { ...entry, ...patch } : entry)) }))
          }
        />
      </Card>
      {canUpdate.allowed && (
        <Group justify="flex-end" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {changes.length === 0 ? 'No changes.' : `${changes.length} ${changes.length === 1 ? 'change' : 'changes'} not saved.`}
          </Text>
          <Button variant="default" disabled={changes.length === 0} onClick={() => setValues(stored)}>
            Undo changes
          </Button>
          <Button disabled={changes.length === 0} loading={preview.isPending} onClick={startReview}>
            Review and save
          </Button>
        </Group>
      )}
      <Modal opened={review !== undefined} onClose={() => setReview(undefined)} title="Review the retention change" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {review && (
          <ReviewChanges
            changes={changes}
            preview={review.preview}
            shortensRecordings={shortensRecordings(changes)}
            objectLock={policy.object_lock}
            saving={save.isPending}
            onSave={confirmSave}
            onCancel={() => setReview(undefined)}
          />
        )}
      </Modal>
    </Stack>
  );
}
