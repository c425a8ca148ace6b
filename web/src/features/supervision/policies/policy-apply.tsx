import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { errorLinesOf } from '../../../components/data/error-lines.tsx';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../../components/forms/form-errors.tsx';
import { formatDate } from '../../../lib/format.ts';
import { applyPolicy, useApplyPolicy } from '../api/apply-policy.ts';
import { ApplyProgress } from './apply-progress.tsx';

/**
 * Apply the SAVED policy to a past period: a job that reads the period's recordings and raises items as processing
 * would have. Its progress is the policy's `last_apply`, which the page polls while it is Running.
 */
export function PolicyApply({ policy }: { policy: SupervisionPolicy }) {
  const [period, setPeriod] = useState<{ from: string | undefined; to: string | undefined }>({ from: undefined, to: undefined });
  const [confirming, setConfirming] = useState(false);
  const apply = useApplyPolicy();
  const running = policy.last_apply?.state === 'Running';
  const reason =
    policy.kind === 'Ignore'
      ? 'An ignore policy raises nothing: apply the lexicon policies it silences instead.'
      : running
        ? 'A run is in progress.'
        : period.from === undefined || period.to === undefined
          ? 'Choose the period to apply the policy to.'
          : undefined;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="policy-apply-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="policy-apply-title">
          Apply to a past period
        </Title>
        <Text size="sm" c="dimmed">
          Raises items for the period's recordings as if the policy had been in force then. It applies the policy as saved: save
          your changes first if they should count.
        </Text>
        <Group align="flex-end">
          <DateRangeFilter from={period.from} to={period.to} onChange={setPeriod} fromLabel="Apply from" toLabel="Apply to" />
          <PermittedButton
            action={applyPolicy.action}
            disabled={reason !== undefined}
            title={reason}
            onClick={() => {
              apply.reset();
              setConfirming(true);
            }}
          >
            Apply
          </PermittedButton>
        </Group>
        {reason !== undefined && (
          <Text size="xs" c="dimmed">
            {reason}
          </Text>
        )}
        {policy.last_apply !== undefined && <ApplyProgress run={policy.last_apply} />}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={`Apply ${policy.policy_reference} to a past period?`}
        message={`Items will be raised for the recordings of ${formatDate(period.from)} to ${formatDate(period.to)} that the policy covers, each due ${policy.review_days} days after it is raised. Raised items cannot be deleted.`}
        linesTitle="The server refused"
        lines={apply.error ? errorLinesOf(apply.error) : []}
        busy={apply.isPending}
        confirmLabel="Apply"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          if (period.from === undefined || period.to === undefined) return;
          apply.mutate(
            { params: { policy_reference: policy.policy_reference }, body: { from: period.from, to: period.to } },
            {
              onSuccess: () => {
                notifySaved(`Applying ${policy.policy_reference} to the period.`);
                setConfirming(false);
              },
            },
          );
        }}
      />
    </Paper>
  );
}
