import { CALL_PAYLOAD_TYPES, MESSAGE_PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';

/** The screens under /dashboard/services that list recordings, one per kind. */
export type RecordingScreen = 'calls' | 'messages' | 'interviews' | 'photos' | 'videos' | 'diagnostics';

/** The screen (under /dashboard/services) that lists a payload type. */
export function recordingScreenOf(type: PayloadType): RecordingScreen {
  if ((CALL_PAYLOAD_TYPES as readonly PayloadType[]).includes(type)) return 'calls';
  if ((MESSAGE_PAYLOAD_TYPES as readonly PayloadType[]).includes(type)) return 'messages';
  switch (type) {
    case 'Interview':
      return 'interviews';
    case 'Photo':
      return 'photos';
    case 'Video':
      return 'videos';
    default:
      return 'diagnostics';
  }
}

/**
 * A recording's page, for screens outside the recordings feature that link to one (a supervision preview's examples).
 * Diagnostics bundles have no page of their own: their list is the link.
 */
export function recordingPath(type: PayloadType, payloadReference: string): string {
  const screen = recordingScreenOf(type);
  return screen === 'diagnostics' ? '/dashboard/services/diagnostics' : `/dashboard/services/${screen}/${encodeURIComponent(payloadReference)}`;
}
