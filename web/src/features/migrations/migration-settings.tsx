import { Alert, Button, Group, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { AccountMigrationConfig, AccountMigrationConfigRequest } from '#shared/contract/entities/account.ts';
import { FormErrorSummary, formErrorsFor, notifySaved } from '../../components/forms/form-errors.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useMigrationConfig } from './api/get-migration-config.ts';
import { useSaveMigrationConfig } from './api/put-migration-config.ts';
import { actorName } from '../../lib/actor-name.ts';

type SwitchName = keyof AccountMigrationConfigRequest;

/** Each switch in plain words: what an import does with the rows it touches while the switch is on. */
const SWITCHES: ReadonlyArray<{ name: SwitchName; label: string; explain: string }> = [
  {
    name: 'disable_onboarding',
    label: 'Do not onboard device users',
    explain:
      'An active device user new to Verity is not created: the row gets the warning “New user skipped”. A legacy user Verity holds as offboarded stays offboarded when the file onboards them: “Onboarding not applied”, Verity’s record stands.',
  },
  {
    name: 'disable_offboarding',
    label: 'Do not offboard device users',
    explain:
      'An offboarded device user new to Verity is not created: “New offboarded user skipped”. A legacy user Verity holds as onboarded stays onboarded when the file offboards them: “Offboarding not applied”, Verity’s record stands.',
  },
  {
    name: 'disable_payloads',
    label: 'Do not load new recordings',
    explain:
      'A recording new to Verity is skipped with the warning “New recording skipped”; nothing of it is stored. Recordings loaded before are still compared with the file (updated or unchanged).',
  },
];

const valuesOf = (config: AccountMigrationConfig): AccountMigrationConfigRequest => ({
  disable_onboarding: config.disable_onboarding,
  disable_offboarding: config.disable_offboarding,
  disable_payloads: config.disable_payloads,
});

/**
 * The account's migration switches: read by anyone who may read them, changed only by a role that may update them.
 * `history`: what opens the switches' earlier versions (features/history, composed by the route).
 */
export function MigrationSettings({ history }: { history?: ((config: AccountMigrationConfig) => ReactNode) | undefined } = {}) {
  const canRead = useCan('migration:Read').allowed;
  const config = useMigrationConfig(canRead);
  if (!canRead) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-settings-title">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4" id="migration-settings-title">
          Import settings
        </Title>
        {config.data && history?.(config.data)}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Switches every import runs with. Rows they stop are not errors: each is listed as a warning, so you can see what was left out. An import reads them as it runs.
      </Text>
      {config.isLoading && <Loader size="sm" aria-label="Loading the import settings" />}
      {config.error && !config.data && (
        <Alert color="red" title="The import settings could not be loaded">
          {config.error.message}
        </Alert>
      )}
      {/* Keyed by the stored version: after a save the form starts again from what was stored. */}
      {config.data && <SettingsForm key={config.data.updated_at ?? 'unset'} config={config.data} />}
    </Paper>
  );
}

function SettingsForm({ config }: { config: AccountMigrationConfig }) {
  const canUpdate = useCan('migration:Update').allowed;
  const stored = valuesOf(config);
  const [values, setValues] = useState(stored);
  const save = useSaveMigrationConfig();
  const changed = SWITCHES.some(({ name }) => values[name] !== stored[name]);
  const errors = formErrorsFor({
    error: save.error,
    paths: { disable_onboarding: 'body.disable_onboarding', disable_offboarding: 'body.disable_offboarding', disable_payloads: 'body.disable_payloads' },
  });
  return (
    <Stack gap="sm">
      <FormErrorSummary lines={errors.general} />
      {SWITCHES.map(({ name, label, explain }) => (
        <Switch
          key={name}
          label={label}
          description={explain}
          checked={values[name]}
          disabled={!canUpdate}
          error={errors.field[name]}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setValues((previous) => ({ ...previous, [name]: checked }));
          }}
        />
      ))}
      <Text size="xs" c="dimmed">
        {config.updated_at ? `Last changed ${formatDateTime(config.updated_at)}${config.updated_by ? ` by ${actorName(config.updated_by_actor, config.updated_by)}` : ''}.` : 'Never changed: every switch is off.'}
        {!canUpdate && ' Your roles allow reading these settings, not changing them.'}
      </Text>
      {canUpdate && (
        <Group justify="flex-end">
          <Button variant="default" disabled={!changed} onClick={() => setValues(stored)}>
            Undo changes
          </Button>
          <Button disabled={!changed} loading={save.isPending} onClick={() => save.mutate({ body: values }, { onSuccess: () => notifySaved('Import settings saved.') })}>
            Save settings
          </Button>
        </Group>
      )}
    </Stack>
  );
}
