import {
  Badge,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { TRANSFER_FILE_FORMATS, TRANSFER_TYPES, type TransferFileFormat, type TransferType } from '#shared/constants/account.ts';
import { TRANSFERABLE_PAYLOAD_TYPES, type TransferablePayloadType } from '#shared/constants/payloads.ts';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { SegmentedField, TextareaField, TextField, useFormValues } from '../../components/forms/form-fields.tsx';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useCreateConfig } from './api/create-config.ts';
import { useUpdateConfig } from './api/update-config.ts';
import { checkConfigForm, CONFIG_FIELD_PATHS, configFormValuesOf, EMPTY_CONFIG_FORM, type ConfigFormValues } from './config-form-model.ts';
import { PgpKeySummary } from './pgp-key-summary.tsx';
import { SchedulePreviewPanel } from './schedule-preview.tsx';
import { FILE_FORMAT_HELP, FILE_FORMAT_LABELS, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';

/** "Set" or "Not set" beside a write-only secret: its value never comes back from the server. */
function SecretState({ set }: { set: boolean }) {
  return (
    <Badge size="sm" variant="light" color={set ? 'green' : 'gray'} tt="none">
      {set ? 'Set' : 'Not set'}
    </Badge>
  );
}

function SecretInput({ label, stored, value, error, onChange }: { label: string; stored: boolean; value: string; error: ReactNode; onChange: (value: string) => void }) {
  return (
    <PasswordInput
      label={stored ? `Replace ${label.toLowerCase()}` : label}
      description={
        <>
          <SecretState set={stored} /> {stored ? 'Leave empty to keep the stored one. It is never shown again.' : 'Stored encrypted; it is never shown again.'}
        </>
      }
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      autoComplete="new-password"
      required={!stored}
    />
  );
}

/**
 * Create or change a transfer configuration: where deliveries go (S3 or SFTP), what they carry, how they are packed
 * and encrypted, and when they run. Input is checked with the contract before it is sent; what only the server can
 * check comes back as `path: message` lines shown under the same fields.
 */
export function ConfigForm({ config, onDone }: { config?: TransferConfig; onDone: () => void }) {
  const editing = config !== undefined;
  const { values, set } = useFormValues<ConfigFormValues>(editing ? configFormValuesOf(config) : EMPTY_CONFIG_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const create = useCreateConfig();
  const update = useUpdateConfig();
  const save = editing ? update : create;
  const stored = { zipPassword: config?.has_zip_password === true, sftpPassword: config?.has_sftp_password === true };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkConfigForm(values, stored);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate(
      { params: { transfer_config_reference: checked.reference }, body: checked.body },
      {
        onSuccess: () => {
          notifySaved(editing ? `Transfer configuration ${checked.reference} saved.` : `Transfer configuration ${checked.reference} created.`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines, error: save.error, paths: CONFIG_FIELD_PATHS });
  const field = errors.field;
  const form = { values, set, errors: field };

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit transfer configuration' : 'New transfer configuration'}>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            form={form}
            name="reference"
            label="Reference"
            description="3 to 255 characters. Cannot be changed later."
            disabled={editing}
            required
            data-autofocus
          />
          <Group align="flex-end" justify="space-between">
            <SegmentedField<TransferType>
              id="transfer-type-label"
              label="What to deliver"
              value={values.transferType}
              options={TRANSFER_TYPES.map((type) => ({ value: type, label: TRANSFER_TYPE_LABELS[type] }))}
              onChange={(type) => set('transferType', type)}
            />
            <Switch label="Active" checked={values.isActive} onChange={(event) => set('isActive', event.currentTarget.checked)} error={field.isActive} />
          </Group>
        </SimpleGrid>

        <Fieldset legend="Destination">
          <Stack gap="sm">
            <SegmentedField
              id="target-type-label"
              label="Target"
              value={values.targetType}
              options={[
                { value: 'SFTP', label: 'SFTP server' },
                { value: 'S3', label: 'Amazon S3 bucket' },
              ]}
              onChange={(target) => set('targetType', target)}
            />
            {field.targetType !== undefined && (
              <Text size="sm" c="red">
                {field.targetType}
              </Text>
            )}
            {values.targetType === 'S3' ? (
              <>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField
                    form={form}
                    name="destination"
                    label="Destination"
                    description="s3://bucket/optional/prefix/"
                    required
                  />
                  <TextField
                    form={form}
                    name="iamRoleArn"
                    label="IAM role ARN"
                    description="The role in your account that may write to the bucket, e.g. arn:aws:iam::123456789012:role/VerityExport"
                    required
                  />
                </SimpleGrid>
                <Text size="sm" c="dimmed">
                  {config?.external_id === undefined ? (
                    'Once saved, this page shows the ExternalId the role’s trust policy must require (sts:ExternalId) for Verity to assume it.'
                  ) : (
                    <>
                      The role’s trust policy must let Verity assume it with sts:ExternalId <Code>{config.external_id}</Code>.
                    </>
                  )}
                </Text>
              </>
            ) : (
              <>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <TextField
                    form={form}
                    name="server"
                    label="Server"
                    description="Host name or IP address"
                    required
                  />
                  <TextField
                    form={form}
                    name="port"
                    label="Port"
                    description="1 to 65535 (SSH is 22)"
                    inputMode="numeric"
                    required
                  />
                  <TextField
                    form={form}
                    name="rootDirectory"
                    label="Root directory"
                    description="Where deliveries are written; starts with /"
                    required
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField
                    form={form}
                    name="username"
                    label="Username"
                    required
                    autoComplete="off"
                  />
                  <SecretInput label="SFTP password" stored={stored.sftpPassword} value={values.sftpPassword} error={field.sftpPassword} onChange={(value) => set('sftpPassword', value)} />
                </SimpleGrid>
                <TextField
                  form={form}
                  name="hostKeyFingerprint"
                  label="Host key fingerprint"
                  description="The server's key as ssh-keygen -l prints it (SHA256:…). Nothing is delivered until it is set and the server shows this key; a failed run names the key the server showed."
                  placeholder="SHA256:"
                  spellCheck={false}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                />
              </>
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend="Contents">
          <Stack gap="sm">
            <Checkbox.Group
              label="Payload types"
              description="The recording types this configuration delivers (only types that can be transferred)"
              value={values.payloadTypes}
              onChange={(types) => set('payloadTypes', types as TransferablePayloadType[])}
              required
              error={field.payloadTypes}
            >
              <Group mt="xs" gap="md">
                {TRANSFERABLE_PAYLOAD_TYPES.map((type) => (
                  <Checkbox key={type} value={type} label={PAYLOAD_TYPE_LABELS[type]} />
                ))}
              </Group>
            </Checkbox.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="File format"
                description={FILE_FORMAT_HELP[values.format]}
                data={TRANSFER_FILE_FORMATS.map((format) => ({ value: format, label: FILE_FORMAT_LABELS[format] }))}
                value={values.format}
                onChange={(format) => format !== null && set('format', format as TransferFileFormat)}
                allowDeselect={false}
                error={field.format}
              />
              {values.format === 'ZippedWithPassword' && (
                <SecretInput label="Zip password" stored={stored.zipPassword} value={values.zipPassword} error={field.zipPassword} onChange={(value) => set('zipPassword', value)} />
              )}
            </SimpleGrid>
          </Stack>
        </Fieldset>

        <Fieldset legend="Schedule">
          <TextField
            form={form}
            name="schedule"
            label="Schedule expression"
            description="EventBridge form, in UTC: rate(1 day), or cron(minutes hours day-of-month month day-of-week year) with ? in one day field, e.g. cron(0 2 * * ? *). Empty: run on demand only."
            placeholder="cron(0 2 * * ? *)"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <SchedulePreviewPanel expression={values.schedule} savedAt={editing && values.schedule === config.schedule ? config.updated_at : undefined} />
        </Fieldset>

        <Fieldset legend="Encryption">
          <TextareaField
            form={form}
            name="pgpKey"
            label="PGP public key"
            description="Optional: every delivered file is encrypted to this key. Paste the whole armoured block (-----BEGIN PGP PUBLIC KEY BLOCK----- …)."
            autosize
            minRows={3}
            maxRows={10}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' } }}
          />
          <PgpKeySummary armored={values.pgpKey} />
        </Fieldset>

        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save configuration' : 'Create configuration'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
