import { createHash } from 'node:crypto';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import type { z } from 'zod';
import type { PayloadRegistrationResponse, PayloadUploadUrlResponse } from '#shared/contract/entities/device-auth.ts';
import { demoMedia, EICAR, smsThread, wavSeconds } from './demo-media.ts';
import type { DeviceState } from './device-state.ts';
import { deviceCall, fetchKek, type CallResult, type Simulator } from './simulator.ts';

/**
 * The phone records media and uploads it through the payload pipeline as the app does (docs/device-protocol.md
 * "Payloads"): the KEK from GET /keys, the media sealed under a fresh DEK (`sealPayload`), POST /payloads/upload_url,
 * PUT of the ciphertext to the pre-signed URL, POST /payloads, then GET /payloads/{ref} until the server settles it.
 * Nothing is written to the table directly: what the portal shows is what the pipeline made of it.
 */
export const RECORD_TYPES = ['Call', 'Interview', 'Photo', 'Video', 'SMS', 'BlockedCall', 'AbortedCall'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** The device's view of a payload (POST /payloads and GET /payloads/{ref}). */
type PayloadStateAnswer = z.infer<typeof PayloadRegistrationResponse>;

export interface RecordOptions {
  /** The body is the EICAR test file instead of the media: the scan quarantines it. */
  eicar?: boolean;
  /** One ciphertext byte flipped after sealing: the tag check fails it. */
  tamper?: boolean;
  /** The second party (calls, messages). */
  otherNumber?: string;
  /** When the recording starts (default now). */
  at?: Date;
  /** Varies the media (tone pitch, picture tint). */
  seed?: number;
  /** Polls of the state, 200 ms apart (default 150). */
  polls?: number;
  /** SMS: one message with exactly this text instead of the demo thread (what a lexicon policy reads). */
  text?: string;
  /** The phone's side of that message: sent (`O`, the default: the supervised person wrote it) or received (`I`). */
  direction?: 'I' | 'O';
  /** Interview, Photo, Video: these notes instead of the demo ones (a lexicon policy reads notes too). */
  notes?: string;
}

/** Types whose meta carries notes (`payload_notes`). */
const NOTED_TYPES: readonly RecordType[] = ['Interview', 'Photo', 'Video'];

/** Why `options` do not fit `type` (a text is an SMS's, notes are an interview's, photo's or video's), if they do not. */
export function recordOptionsProblem(type: RecordType, options: Pick<RecordOptions, 'text' | 'notes' | 'direction'>): string | undefined {
  if (options.text !== undefined && type !== 'SMS') return 'A text is sent as an SMS: --text needs --type SMS';
  if (options.direction !== undefined && options.text === undefined) return 'A direction is that of a given text: --direction needs --text';
  if (options.notes !== undefined && !NOTED_TYPES.includes(type)) return `Notes belong to ${NOTED_TYPES.join(', ')}: --notes needs one of those types`;
  return undefined;
}

/** One media item to upload: its type, bytes and (unsealed) meta. */
export interface Recording {
  type: RecordType | 'MMS';
  content: Buffer;
  meta: Record<string, unknown>;
}

export interface RecordResult {
  payload_type: string;
  payload_reference?: string;
  /** The device view of the state: processed, failed, pending (timed out) or not_found; or the refusing call. */
  state: string;
  /** The call that refused, when one did (the status and body). */
  refused?: CallResult<object>;
}

const iso = (time: Date) => time.toISOString();
const later = (time: Date, seconds: number) => new Date(time.getTime() + seconds * 1000);

/** Where the phone was: around Leeds, a little apart for each seed. */
function locationOf(at: Date, seed: number) {
  return { latitude: 53.796 + seed * 0.004, longitude: -1.548 + seed * 0.006, accuracy: 12, provider: 'gps', timestamp: iso(at) };
}

/**
 * What the phone records for `type`: the committed speech for a call or an interview, the JPEG photo, the MP4 video,
 * an SMS thread (3 texts and an MMS carrying the photo: 4 payloads) or, given `text`, that one SMS, or a blocked or
 * aborted call (meta only: there is nothing to play).
 */
export function demoRecordings(type: RecordType, options: RecordOptions = {}): Recording[] {
  const at = options.at ?? new Date();
  const seed = options.seed ?? 0;
  const other = options.otherNumber ?? '+447700900555';
  const located = { payload_time: iso(at), timezone: 'Europe/London', payload_location: locationOf(at, seed) };
  switch (type) {
    case 'Call': {
      const content = demoMedia('call.wav');
      const seconds = wavSeconds(content);
      return [
        {
          type,
          content,
          meta: {
            ...located,
            payload_end_time: iso(later(at, seconds)),
            payload_full_duration: seconds,
            voice_source: 'MIC',
            second_parties: [{ phone_number: other, contact_name: 'Northwind Trading', direction: 'O', start_time: iso(at), duration: seconds, connection_time: iso(later(at, 1)) }],
          },
        },
      ];
    }
    case 'Interview': {
      const content = demoMedia('interview.wav');
      // The fixture's interviewer pauses about four seconds in (a second and a half of silence).
      const notes = options.notes ?? 'Site visit interview (simulated)';
      return [{ type, content, meta: { ...located, payload_duration: wavSeconds(content), interview_pause_times: [4], payload_notes: notes } }];
    }
    case 'Photo':
      return [{ type, content: demoMedia('photo.jpg'), meta: { ...located, payload_notes: options.notes ?? 'Delivery photo (simulated)' } }];
    case 'Video':
      return [{ type, content: demoMedia('video.mp4'), meta: { ...located, payload_duration: 4, payload_notes: options.notes ?? 'Short clip (simulated)' } }];
    case 'BlockedCall':
      return [
        {
          type,
          content: Buffer.alloc(0),
          meta: { ...located, payload_full_duration: 0, second_parties: [{ phone_number: '+447700900666', direction: 'I', start_time: iso(at), duration: 0 }], reason_for_blocking: 'Caller is on the blocked numbers list' },
        },
      ];
    case 'AbortedCall':
      return [
        { type, content: Buffer.alloc(0), meta: { ...located, payload_full_duration: 0, second_parties: [{ phone_number: other, direction: 'O', start_time: iso(at), duration: 0 }] } },
      ];
    case 'SMS': {
      const threadId = `thread-${at.getTime().toString(36)}-${seed}`;
      const thread = { thread_id: threadId, message_parties: [{ phone_number: other, contact_name: 'Northwind Trading' }] };
      if (options.text !== undefined) {
        // The message's content is its text in UTF-8, as the demo thread's are.
        const meta = { ...located, ...thread, direction: options.direction ?? 'O', length: options.text.length };
        return [{ type, content: Buffer.from(options.text, 'utf8'), meta }];
      }
      const texts: Recording[] = smsThread().map((message) => ({
        type,
        content: Buffer.from(message.text, 'utf8'),
        meta: { ...located, ...thread, payload_time: iso(later(at, message.offset)), direction: message.direction === 'Incoming' ? 'I' : 'O', length: message.text.length },
      }));
      // An MMS in the same thread: its content is the attached picture.
      const photo = demoMedia('photo.jpg');
      return [...texts, { type: 'MMS', content: photo, meta: { ...located, ...thread, payload_time: iso(later(at, 420)), direction: 'I', length: photo.length } }];
    }
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seals and uploads one recording, then waits for the server to settle it. */
export async function uploadRecording(sim: Simulator, state: DeviceState, recording: Recording, options: RecordOptions = {}): Promise<RecordResult> {
  const base = { payload_type: recording.type };
  const keys = await fetchKek(sim, state);
  if (keys.kek === undefined) return { ...base, state: 'refused', refused: keys.result };
  const content = options.eicar === true ? EICAR : recording.content;
  const sealed = sealPayload({ kek: keys.kek, client: state.client, keyId: keys.result.body.key_id, content, meta: recording.meta });
  if (options.tamper === true) {
    const index = Math.floor(sealed.ciphertext.length / 2);
    sealed.ciphertext[index] = (sealed.ciphertext[index] as number) ^ 0x01;
  }

  // The link is bound to the size and SHA-256 of exactly these bytes: the PUT sends them as declared.
  const url = await deviceCall<PayloadUploadUrlResponse>(sim, state, { method: 'POST', path: '/payloads/upload_url', body: {
    payload_type: recording.type,
    size: sealed.ciphertext.length,
    sha256: createHash('sha256').update(sealed.ciphertext).digest('hex'),
  } });
  if (!url.ok) return { ...base, state: 'refused', refused: url };
  const reference = url.body.payload_reference;
  const put = await fetch(url.body.upload_url, { method: 'PUT', headers: url.body.upload_headers, body: new Uint8Array(sealed.ciphertext) });
  if (!put.ok) {
    return { ...base, payload_reference: reference, state: 'refused', refused: { status: put.status, ok: false, notImplemented: false, body: { message: 'PUT to the upload URL refused' } } };
  }
  const registered = await deviceCall<PayloadStateAnswer>(sim, state, { method: 'POST', path: '/payloads', body: {
    payload_reference: reference,
    payload_type: recording.type,
    ...sealed.registration,
  } });
  if (!registered.ok) return { ...base, payload_reference: reference, state: 'refused', refused: registered };

  // Processing runs on the object event, after the PUT: the state moves on its own.
  let current = registered.body.state;
  for (let poll = 0; current === 'pending' && poll < (options.polls ?? 150); poll += 1) {
    await pause(200);
    const answer = await deviceCall<PayloadStateAnswer>(sim, state, { method: 'GET', path: `/payloads/${encodeURIComponent(reference)}` });
    if (!answer.ok) return { ...base, payload_reference: reference, state: 'refused', refused: answer };
    current = answer.body.state;
  }
  return { ...base, payload_reference: reference, state: current };
}

/** `record`: the media of `type` (an SMS thread is 4 payloads, an SMS with a given text one), each uploaded in order. */
export async function record(sim: Simulator, state: DeviceState, type: RecordType, options: RecordOptions = {}): Promise<RecordResult[]> {
  const problem = recordOptionsProblem(type, options);
  if (problem !== undefined) throw new Error(problem);
  const results: RecordResult[] = [];
  for (const recording of demoRecordings(type, options)) results.push(await uploadRecording(sim, state, recording, options));
  return results;
}
