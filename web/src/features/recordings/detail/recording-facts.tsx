import { Badge, Group, Text } from '@mantine/core';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { formatDateTime, formatDuration, formatNumber } from '../../../lib/format.ts';
import { DeviceLink, DeviceUserLink } from '../lists/links.tsx';
import { PAYLOAD_STATE_COLOURS, PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { deviceLabel, lengthOfRecording } from '../shared/recording-title.ts';
import { FactList, type Fact } from '../../../components/data/fact-list.tsx';
import { actorName } from '../../../lib/actor-name.ts';

const VOICE_SOURCES: Record<string, string> = { MIC: 'Microphone', BT: 'Bluetooth', HEADSET: 'Headset' };

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);


/** The recording's length in seconds from its meta (calls: payload_full_duration; others: payload_duration). */
export function lengthOf(meta: Record<string, unknown> | undefined): number | undefined {
  return lengthOfRecording({ meta });
}

/** The payload's record and meta as a description list: what it is, when, from which phone, and its custody. */
export function RecordingFacts({ payload }: { payload: Payload }) {
  const meta = payload.meta;
  const length = lengthOfRecording(payload);
  const fields: Fact[] = [
    ['Type', PAYLOAD_TYPE_LABELS[payload.payload_type]],
    [
      'State',
      <Group gap={4} key="state">
        <Badge variant="light" tt="none" miw="max-content" color={PAYLOAD_STATE_COLOURS[payload.payload_state]}>
          {PAYLOAD_STATE_LABELS[payload.payload_state]}
        </Badge>
        {payload.is_late && (
          <Badge variant="outline" tt="none" miw="max-content" color="orange">
            Late upload
          </Badge>
        )}
        {payload.is_legacy && (
          <Badge variant="outline" tt="none" miw="max-content" color="gray">
            Legacy
          </Badge>
        )}
      </Group>,
    ],
    ['Recorded', text(meta?.payload_time) && formatDateTime(text(meta?.payload_time))],
    ['Ended', text(meta?.payload_end_time) && formatDateTime(text(meta?.payload_end_time))],
    ['Local time', text(meta?.local_time) && `${text(meta?.local_time)}${text(meta?.timezone) ? ` (${text(meta?.timezone)})` : ''}`],
    ['Length', length === undefined ? undefined : `${formatDuration(length)} (${formatNumber(length)} s)`],
    [
      'Device',
      <DeviceLink key="device" reference={payload.device_reference} label={deviceLabel({ model: payload.device_model, phone_number: payload.device_phone_number })} />,
    ],
    ['Device user', payload.device_user_reference && <DeviceUserLink key="user" reference={payload.device_user_reference} name={payload.device_user_name} />],
    ['Group', payload.group],
    ['Voice source', text(meta?.voice_source) && (VOICE_SOURCES[String(meta?.voice_source)] ?? text(meta?.voice_source))],
    ['Signal strength', number(meta?.signal_strength)?.toString()],
    ['Size', number(meta?.size) === undefined ? undefined : `${formatNumber(number(meta?.size))} bytes`],
    ['Notes', text(meta?.payload_notes)],
    ['Uploaded', payload.uploaded_at && formatDateTime(payload.uploaded_at)],
    ['Processed', payload.processed_at && formatDateTime(payload.processed_at)],
    ['Transferred', payload.transferred_at && formatDateTime(payload.transferred_at)],
    ['Receipt confirmed', payload.receipt_confirmed_at && `${formatDateTime(payload.receipt_confirmed_at)}${payload.receipt_confirmed_by ? ` by ${actorName(payload.receipt_confirmed_by_actor, payload.receipt_confirmed_by)}` : ''}`],
    ['SHA-256 (as the phone sealed it)', payload.checksum && <Text key="sum" ff="monospace" size="xs" component="span">{payload.checksum}</Text>],
    ['Updated', payload.updated_at && `${formatDateTime(payload.updated_at)}${payload.updated_by ? ` by ${actorName(payload.updated_by_actor, payload.updated_by)}` : ''}`],
  ];
  return <FactList facts={fields} />;
}
