import { Button, Card, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import { COMPLETENESS_HOURS_MAX, COMPLETENESS_HOURS_MIN } from '#shared/constants/completeness.ts';
import type { AccountDefaults } from '#shared/contract/entities/account.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../../components/forms/form-errors.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useAccountDefaults, useSaveAccountDefaults } from './account-defaults.ts';
import { HOURS_FIELD_PATHS, hoursProblems, hoursRequestOf, hoursValuesOf, type CompletenessHoursValues } from './settings-model.ts';

/**
 * The account's two completeness hours (account defaults): how long an entry stays Pending before it is Missing, and
 * how long a phone may send nothing before it is silent. Shown to a role that reads the account defaults; editable by
 * one that may change them. Nothing at all for a role that may not read them. `history`: what opens the defaults'
 * earlier versions (features/history, composed by the route).
 */
export function CompletenessSettings({ history }: { history?: ((defaults: AccountDefaults) => ReactNode) | undefined } = {}) {
  const canRead = useCan('account:ReadDefaults');
  const defaults = useAccountDefaults({ enabled: canRead.allowed });
  if (!canRead.allowed || defaults.data === undefined) return null;
  // Keyed by the stored version: after a save the form starts again from what was stored.
  return <HoursForm key={defaults.data.updated_at ?? 'defaults'} stored={defaults.data} history={history?.(defaults.data)} />;
}

/** The form over the stored defaults (exported for its test). */
export function HoursForm({ stored, history }: { stored: AccountDefaults; history?: ReactNode }) {
  const canUpdate = useCan('account:UpdateDefaults');
  const readOnly = !canUpdate.allowed;
  const initial = useMemo(() => hoursValuesOf(stored), [stored]);
  const [values, setValues] = useState<CompletenessHoursValues>(initial);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const save = useSaveAccountDefaults();
  const errors = formErrorsFor({ localLines, error: save.error, paths: HOURS_FIELD_PATHS });
  const changed = values.completeness_grace_hours !== initial.completeness_grace_hours || values.silent_device_hours !== initial.silent_device_hours;

  const submit = () => {
    const problems = hoursProblems(values);
    setLocalLines(problems);
    if (problems.length > 0) return;
    save.mutate({ body: hoursRequestOf(stored, values) }, { onSuccess: () => notifySaved('Completeness hours saved') });
  };
  const hours = (field: keyof CompletenessHoursValues, label: string, description: string) => (
    <NumberInput
      label={label}
      description={description}
      value={values[field]}
      onChange={(next) => setValues((previous) => ({ ...previous, [field]: typeof next === 'number' ? next : next.trim() === '' ? '' : Number(next) }))}
      min={COMPLETENESS_HOURS_MIN}
      max={COMPLETENESS_HOURS_MAX}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      suffix=" hours"
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      error={errors.field[field]}
      w={260}
    />
  );

  return (
    <Card withBorder padding="md" data-testid="completeness-settings">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4">
          Grace and silence
        </Title>
        {history}
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {`Account defaults, ${COMPLETENESS_HOURS_MIN} to ${COMPLETENESS_HOURS_MAX} hours. A call or message stays Pending this long after it ended before it counts as Missing (an entry keeps the grace it was given when the phone reported it). A phone that sends neither its ledger nor telemetry this long is silent and raises an alert.`}
        {readOnly && ' Your roles allow reading these hours, not changing them.'}
      </Text>
      <FormErrorSummary lines={errors.general} />
      <Stack gap="sm">
        <Group align="flex-start">
          {hours('completeness_grace_hours', 'Grace before Missing', 'After the call or message ended')}
          {hours('silent_device_hours', 'Silent after', 'Without a ledger report or telemetry')}
        </Group>
        {!readOnly && (
          <Group>
            <Button onClick={submit} disabled={!changed} loading={save.isPending}>
              Save hours
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
