import { ActionIcon, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { DEVICE_COMMANDS, type DeviceCommandName } from '#shared/constants/devices.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { FormErrorSummary, formErrorsFor, notifySaved } from '../../components/forms/form-errors.tsx';
import { useCan } from '../../lib/use-can.ts';
import { useSendDeviceCommand } from './api/send-device-command.ts';
import { toCommandParams, type ParamRow } from './command-params.ts';

/** What each command asks the device to do (spec point 9 names them; the words are ours). */
export const COMMAND_HELP: Record<DeviceCommandName, string> = {
  sync_data: 'Upload everything recorded and not yet uploaded.',
  diagnostics_upload: 'Upload a diagnostics bundle.',
  reupload_sms_messages: 'Upload the SMS messages again.',
  sms_auto_response: 'Set the automatic SMS reply (for example a message parameter).',
  remove_device_admin: 'Give up device administrator rights (before the app is removed).',
  send_verification_sms: 'Send an SMS to verify the phone numbers.',
  allow_factory_reset: 'Allow the user to factory reset the device.',
  allow_power_off: 'Allow the user to switch the device off.',
};

const EMPTY_ROW: ParamRow = { name: '', value: '', kind: 'text' };

/** The wire paths a parameter row's problems name: its name once given, else its position. */
function rowPaths(row: ParamRow, index: number): string[] {
  const name = row.name.trim();
  const local = name === '' ? `params.${index + 1}` : `params.${name}`;
  return [local, `body.${local}`];
}

/**
 * Sends one of the eight device commands, with optional flat parameters (name, value, kind). Problems show under the
 * field they concern; a user whose roles lack `commands:Send` sees the form disabled with the reason.
 */
export function SendCommandForm({ deviceReference, disabled: deactivated }: { deviceReference: string; disabled: boolean }) {
  const canSend = useCan('commands:Send');
  const disabled = deactivated || !canSend.allowed;
  const send = useSendDeviceCommand();
  const [command, setCommand] = useState<DeviceCommandName | null>(null);
  const [rows, setRows] = useState<ParamRow[]>([]);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (command === null) return setProblems(['body.command: The command field is required.']);
    const { params, errors } = toCommandParams(rows);
    setProblems(errors);
    if (errors.length > 0) return;
    send.mutate(
      {
        params: { device_reference: deviceReference },
        body: params === undefined ? { command } : { command, params },
      },
      {
        onSuccess: (result) => {
          notifySaved(`Command ${result.command} sent (${result.command_reference}).`);
          setRows([]);
        },
      },
    );
  };

  const update = (index: number, patch: Partial<ParamRow>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const errors = formErrorsFor({
    localLines: problems,
    error: send.error,
    paths: {
      command: 'body.command',
      ...Object.fromEntries(rows.map((row, index) => [`row${index}`, rowPaths(row, index)])),
    },
  });
  const rowError = (index: number) => (errors.field as Record<string, string | undefined>)[`row${index}`];

  return (
    <form onSubmit={submit} aria-labelledby="send-command-heading">
      <Stack gap="sm">
        <Title order={3} size="h5" id="send-command-heading">
          Send command
        </Title>
        {deactivated && (
          <Text size="sm" c="dimmed">
            Commands cannot be sent to a deactivated device.
          </Text>
        )}
        {!deactivated && !canSend.allowed && (
          <Text size="sm" c="dimmed">
            {canSend.reason}
          </Text>
        )}
        <FormErrorSummary lines={errors.general} />
        <Select
          label="Command"
          placeholder="Choose a command"
          data={DEVICE_COMMANDS.map((name) => ({ value: name, label: name }))}
          value={command}
          onChange={(value) => setCommand(value as DeviceCommandName | null)}
          description={command ? COMMAND_HELP[command] : undefined}
          error={errors.field.command}
          disabled={disabled}
          required
        />
        {rows.map((row, index) => (
          <Group key={index} align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label={`Parameter ${index + 1} name`}
              value={row.name}
              maxLength={60}
              error={rowError(index)}
              onChange={(event) => update(index, { name: event.currentTarget.value })}
            />
            <Select
              label={`Parameter ${index + 1} kind`}
              data={[
                { value: 'text', label: 'Text' },
                { value: 'number', label: 'Number' },
                { value: 'boolean', label: 'Yes or no' },
              ]}
              value={row.kind}
              allowDeselect={false}
              onChange={(value) =>
                update(index, {
                  kind: (value ?? 'text') as ParamRow['kind'],
                  value: value === 'boolean' ? 'true' : row.value,
                })
              }
              w={130}
            />
            {row.kind === 'boolean' ? (
              <Select
                label={`Parameter ${index + 1} value`}
                data={[
                  { value: 'true', label: 'Yes (true)' },
                  { value: 'false', label: 'No (false)' },
                ]}
                value={row.value}
                allowDeselect={false}
                onChange={(value) => update(index, { value: value ?? 'true' })}
                w={140}
              />
            ) : (
              <TextInput
                label={`Parameter ${index + 1} value`}
                value={row.value}
                inputMode={row.kind === 'number' ? 'decimal' : undefined}
                maxLength={1000}
                onChange={(event) => update(index, { value: event.currentTarget.value })}
              />
            )}
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove parameter ${index + 1}`}
              onClick={() => setRows((current) => current.filter((_, at) => at !== index))}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="default" onClick={() => setRows((current) => [...current, EMPTY_ROW])} disabled={disabled || rows.length >= 20}>
            Add parameter
          </Button>
          <PermittedButton action="commands:Send" type="submit" loading={send.isPending} disabled={deactivated}>
            Send command
          </PermittedButton>
        </Group>
      </Stack>
    </form>
  );
}
