import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { FactList, type Fact } from '../../components/data/fact-list.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { PgpKeySummary } from './pgp-key-summary.tsx';
import { SchedulePreviewPanel } from './schedule-preview.tsx';
import { FILE_FORMAT_LABELS, TARGET_TYPE_LABELS, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Where a configuration delivers, in one line: the S3 destination, or sftp://user@server:port/root. */
export function targetOf(config: TransferConfig): string {
  const params = config.params;
  if (config.target_type === 'S3') return text(params.destination);
  return `sftp://${text(params.username)}@${text(params.server)}:${text(params.port) || '22'}${text(params.root_directory)}`;
}

const secretState = (set: boolean | undefined) => (
  <Badge size="sm" variant="light" color={set === true ? 'green' : 'gray'} tt="none">
    {set === true ? 'Set' : 'Not set'}
  </Badge>
);

/** One configuration, read only: every field, the next runs and the key's fingerprint (secrets only as set / not set). */
export function ConfigFacts({ config, onEdit }: { config: TransferConfig; onEdit?: (() => void) | undefined }) {
  const params = config.params;
  const target: Fact[] =
    config.target_type === 'S3'
      ? [
          ['Destination', text(params.destination)],
          ['IAM role ARN', text(params.iam_role_arn)],
          ['ExternalId the role must require', config.external_id === undefined ? undefined : <Code data-testid="external-id">{config.external_id}</Code>],
        ]
      : [
          ['Server', `${text(params.server)}:${text(params.port) || '22'}`],
          ['Root directory', text(params.root_directory)],
          ['Username', text(params.username)],
          ['Host key fingerprint', text(params.host_key_fingerprint) === '' ? 'Not set: nothing is delivered until it is' : <Code>{text(params.host_key_fingerprint)}</Code>],
          ['SFTP password', secretState(config.has_sftp_password)],
        ];
  const facts: Fact[] = [
    ['Delivers', TRANSFER_TYPE_LABELS[config.transfer_type]],
    ['Target', TARGET_TYPE_LABELS[config.target_type]],
    ['State', config.is_active ? 'Active' : 'Inactive'],
    ...target,
    ['Payload types', config.payload_types.map((type) => PAYLOAD_TYPE_LABELS[type]).join(', ')],
    ['File format', FILE_FORMAT_LABELS[config.transfer_file_format]],
    ...(config.transfer_file_format === 'ZippedWithPassword' ? ([['Zip password', secretState(config.has_zip_password)]] as Fact[]) : []),
    ['Schedule', config.schedule === '' ? 'On demand only' : <Code>{config.schedule}</Code>],
    ['Last changed', config.updated_at === undefined ? undefined : `${formatDateTime(config.updated_at)}${config.updated_by === undefined ? '' : ` by ${config.updated_by}`}`],
  ];
  return (
    <Stack>
      <FactList facts={facts} />
      {config.schedule !== '' && config.is_active && <SchedulePreviewPanel expression={config.schedule} savedAt={config.updated_at} />}
      <div>
        <Text size="sm" fw={500}>
          PGP encryption
        </Text>
        <PgpKeySummary armored={config.pgp_key ?? ''} />
      </div>
      <Group justify="flex-end">
        <Button variant="default" renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers" search={{ config: config.transfer_config_reference }} />}>
          Its transfers
        </Button>
        {onEdit !== undefined && (
          <PermittedButton action="transferConfigs:Update" onClick={onEdit}>
            Edit
          </PermittedButton>
        )}
      </Group>
    </Stack>
  );
}
