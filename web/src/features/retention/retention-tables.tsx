import { NumberInput, Select, Table, Text } from '@mantine/core';
import { RETENTION_TIMESTAMP_TYPES } from '#shared/constants/account.ts';
import type { RetentionTimestampType } from '#shared/constants/account.ts';
import { PAYLOAD_TYPE_LABELS, RETENTION_RECORD_TYPE_LABELS, RETENTION_TIMESTAMP_LABELS } from '../../lib/labels.ts';
import { payloadFloor, recordFloor, type RegulatoryRule } from '#shared/constants/regulatory-rules.ts';
import { FloorNote } from './floor-note.tsx';
import { PeriodInput } from './period-input.tsx';
import { isTransferable, RECORD_TYPES, type PayloadValues, type PeriodValues, type RecordType, type RetentionField, type RetentionValues } from './retention-model.ts';

type FieldErrors = Partial<Record<RetentionField, string>>;

/** What each record type holds, in a few words beside its name. */
const RECORD_TYPE_NOTES: Record<RecordType, string> = {
  AlertData: 'Alerts and what cleared them',
  CaptureLedgerData: 'The calls and messages each phone reported seeing, checked against the recordings; counted from the call or message, as long as calls by default',
  CaseData: 'Closed cases and their production log, counted from the closing',
  DeviceActivityData: 'Every call a device made',
  DeviceData: 'Devices and their history',
  DeviceUserData: 'Offboarded device users, counted from the offboarding',
  ErasureRequestData: 'Erasure requests with their decision, review and report, counted from their end (the retention job does not dispose of them yet)',
  GpsData: 'Location fixes of devices',
  LegacyMigrationData: 'Finished imports from the legacy platform, with their results',
  LegalHoldData: 'Counted from the release; an active hold is never disposed of',
  SupervisionData: 'Supervision review items and their history (who reviewed what, when, and what was done), counted from their closing',
  SupportAccessData: 'Staff requests to act in this portal, counted from their end',
  TransferableData: 'Finished transfers and their chain of custody',
  UserActivityData: 'Every call a portal user or app made',
};

/** One row per record type: delete after and destroy after, in days. */
export function RecordTypeTable({
  values,
  errors,
  readOnly,
  rules = [],
  onChange,
}: {
  values: RetentionValues['records'];
  errors: FieldErrors;
  readOnly: boolean;
  /** The tenant's chosen rules, whose floor shows beside each type. */
  rules?: readonly RegulatoryRule[] | undefined;
  onChange: (type: RecordType, patch: Partial<PeriodValues>) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Retention per record type" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Record type</Table.Th>
            <Table.Th scope="col">Delete after</Table.Th>
            <Table.Th scope="col">Destroy after</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RECORD_TYPES.map((type) => {
            const label = RETENTION_RECORD_TYPE_LABELS[type];
            return (
              <Table.Tr key={type} data-record-type={type}>
                <Table.Th scope="row" fw={500}>
                  <Text size="sm" fw={600}>
                    {label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {RECORD_TYPE_NOTES[type]}
                  </Text>
                  <FloorNote floor={recordFloor(rules, type)} />
                </Table.Th>
                <Table.Td>
                  <PeriodInput
                    label={`${label}: delete after (days)`}
                    value={values[type].delete_after_days}
                    onChange={(days) => onChange(type, { delete_after_days: days })}
                    error={errors[`records.${type}.delete_after_days`]}
                    readOnly={readOnly}
                  />
                </Table.Td>
                <Table.Td>
                  <PeriodInput
                    label={`${label}: destroy after (days)`}
                    value={values[type].destroy_after_days}
                    onChange={(days) => onChange(type, { destroy_after_days: days })}
                    error={errors[`records.${type}.destroy_after_days`]}
                    readOnly={readOnly}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const TIMESTAMP_OPTIONS = (transferable: boolean) =>
  RETENTION_TIMESTAMP_TYPES.map((value) => ({ value, label: RETENTION_TIMESTAMP_LABELS[value], disabled: !transferable && value === 'transferred_at' }));

/** One row per payload type: the periods, the time they count from, and the receipts and transfers required first. */
export function PayloadTypeTable({
  values,
  errors,
  readOnly,
  rules = [],
  onChange,
}: {
  values: RetentionValues['payloads'];
  errors: FieldErrors;
  readOnly: boolean;
  /** The tenant's chosen rules, whose floor shows beside each type. */
  rules?: readonly RegulatoryRule[] | undefined;
  onChange: (index: number, patch: Partial<PayloadValues>) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={940}>
      <Table aria-label="Retention per recording type" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Recording type</Table.Th>
            <Table.Th scope="col">Delete after</Table.Th>
            <Table.Th scope="col">Destroy after</Table.Th>
            <Table.Th scope="col">Counted from</Table.Th>
            <Table.Th scope="col">Receipts required</Table.Th>
            <Table.Th scope="col">Transfers required</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {values.map((entry, index) => {
            const label = PAYLOAD_TYPE_LABELS[entry.payload_type];
            const transferable = isTransferable(entry.payload_type);
            return (
              <Table.Tr key={entry.payload_type} data-payload-type={entry.payload_type}>
                <Table.Th scope="row">
                  <Text size="sm" fw={600}>
                    {label}
                  </Text>
                  <FloorNote floor={payloadFloor(rules, entry.payload_type)} />
                </Table.Th>
                <Table.Td>
                  <PeriodInput
                    label={`${label} recordings: delete after (days)`}
                    value={entry.delete_after_days}
                    onChange={(days) => onChange(index, { delete_after_days: days })}
                    error={errors[`payloads.${index}.delete_after_days`]}
                    readOnly={readOnly}
                  />
                </Table.Td>
                <Table.Td>
                  <PeriodInput
                    label={`${label} recordings: destroy after (days)`}
                    value={entry.destroy_after_days}
                    onChange={(days) => onChange(index, { destroy_after_days: days })}
                    error={errors[`payloads.${index}.destroy_after_days`]}
                    readOnly={readOnly}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`${label} recordings: counted from`}
                    data={TIMESTAMP_OPTIONS(transferable)}
                    value={entry.retention_timestamp}
                    onChange={(value) => value !== null && onChange(index, { retention_timestamp: value as RetentionTimestampType })}
                    allowDeselect={false}
                    readOnly={readOnly}
                    variant={readOnly ? 'filled' : 'default'}
                    error={errors[`payloads.${index}.retention_timestamp`]}
                    w={170}
                  />
                </Table.Td>
                <Table.Td>
                  <CountInput
                    label={`${label} recordings: receipts required`}
                    value={entry.required_receipts}
                    onChange={(count) => onChange(index, { required_receipts: count })}
                    error={errors[`payloads.${index}.required_receipts`]}
                    readOnly={readOnly}
                  />
                </Table.Td>
                <Table.Td>
                  {transferable ? (
                    <CountInput
                      label={`${label} recordings: transfers required`}
                      value={entry.required_transfers}
                      onChange={(count) => onChange(index, { required_transfers: count })}
                      error={errors[`payloads.${index}.required_transfers`]}
                      readOnly={readOnly}
                    />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Never transferred
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CountInput({ label, value, onChange, error, readOnly }: { label: string; value: number; onChange: (value: number) => void; error?: string | undefined; readOnly: boolean }) {
  return (
    <NumberInput
      aria-label={label}
      value={value}
      onChange={(next) => onChange(typeof next === 'number' ? next : 0)}
      min={0}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      hideControls
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      error={error}
      w={90}
    />
  );
}
