import { CALL_PAYLOAD_TYPES, MESSAGE_PAYLOAD_TYPES, PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';

/** The recordings screens and the payload types each lists (spec point 9's calls and messages groups). */
export const RECORDING_KINDS = {
  calls: { title: 'Calls', noun: 'calls', types: CALL_PAYLOAD_TYPES },
  messages: { title: 'Messages', noun: 'messages', types: MESSAGE_PAYLOAD_TYPES },
  interviews: { title: 'Interviews', noun: 'interviews', types: ['Interview'] },
  photos: { title: 'Photos', noun: 'photos', types: ['Photo'] },
  videos: { title: 'Videos', noun: 'videos', types: ['Video'] },
  diagnostics: { title: 'Diagnostics', noun: 'diagnostics bundles', types: ['Diagnostics'] },
  all: { title: 'Recordings', noun: 'recordings', types: PAYLOAD_TYPES },
} as const satisfies Record<string, { title: string; noun: string; types: readonly PayloadType[] }>;
export type RecordingKind = keyof typeof RECORDING_KINDS;

/** The screen (under /dashboard/services) that lists a payload type (lib/recording-screen.ts, shared with other features). */
export { recordingScreenOf as kindOfType } from '../../../lib/recording-screen.ts';
