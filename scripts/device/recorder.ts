import { createHash } from 'node:crypto';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import type { z } from 'zod';
import type { PayloadRegistrationResponse, PayloadUploadUrlResponse } from '#shared/contract/entities/device-auth.ts';
import { demoMedia, EICAR, smsThread, wavSeconds } from './demo-media.ts';
import type { DeviceState, HeldRecording } from './device-state.ts';
import { noteInLedger } from './ledger.ts';
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
  /**
   * Capture gaps (docs/completeness.md "Simulating gaps"). The phone's ledger notes the call or message whatever
   * happens next; then `drop`: no recording is uploaded (the entry ends `Missing`); `late`: the recording is held
   * back until `uploadHeld` (the entry is `Pending`, then `Missing` once past the grace period, then `Captured late`);
   * `shortSeconds`: the call went on that many seconds after the recording stopped (`Short` beyond
   * SHORT_TOLERANCE_SECONDS).
   */
  drop?: boolean;
  late?: boolean;
  shortSeconds?: number;
}

/** Types whose meta carries notes (`payload_notes`). */
const NOTED_TYPES: readonly RecordType[] = ['Interview', 'Photo', 'Video'];

/** Types a direction can be given for: a call, or one SMS of a given text (the demo thread has both directions). */
const DIRECTED_TYPES: readonly RecordType[] = ['Call', 'AbortedCall'];
/** Types the phone's call log or message store lists, so a gap in their capture shows in its ledger. */
const LEDGER_RECORD_TYPES: readonly RecordType[] = ['Call', 'AbortedCall', 'SMS'];

/** Why `options` do not fit `type` (a text is an SMS's, notes are an interview's, photo's or video's), if they do not. */
export function recordOptionsProblem(
  type: RecordType,
  options: Pick<RecordOptions, 'text' | 'notes' | 'direction' | 'drop' | 'late' | 'shortSeconds' | 'eicar' | 'tamper'>,
): string | undefined {
  if (options.text !== undefined && type !== 'SMS') return 'A text is sent as an SMS: --text needs --type SMS';
  if (options.direction !== undefined && options.text === undefined && !DIRECTED_TYPES.includes(type)) {
    return 'A direction is that of a call or of a given text: --direction needs --type Call or --text';
  }
  if (options.notes !== undefined && !NOTED_TYPES.includes(type)) return `Notes belong to ${NOTED_TYPES.join(', ')}: --notes needs one of those types`;
  const gaps = [options.drop === true && '--drop', options.late === true && '--late', options.shortSeconds !== undefined && '--short'].filter((gap) => gap !== false);
  if (gaps.length > 1) return `One gap at a time: ${gaps.join(' and ')} do not go together`;
  if (gaps.length === 1 && !LEDGER_RECORD_TYPES.includes(type)) return `Only what the call log or message store lists has gaps: ${gaps[0] ?? ''} needs --type ${LEDGER_RECORD_TYPES.join(', ')}`;
  if (gaps.length === 1 && (options.eicar === true || options.tamper === true)) return `${gaps[0] ?? ''} goes with a clean upload: not with --eicar or --tamper`;
  if (options.shortSeconds !== undefined && (type !== 'Call' || !Number.isInteger(options.shortSeconds) || options.shortSeconds < 1)) {
    return '--short is whole seconds (1 or more) a call went on after its recording stopped: it needs --type Call';
  }
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
  /**
   * The device view of the state: processed, failed, pending (timed out) or not_found; or the refusing call; or, for
   * a gap the phone was told to make, `dropped` (never uploaded) or `held` (waiting for `uploadHeld`).
   */
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
      // A short capture: the recording (and its length) stops `shortSeconds` before the call did.
      const callSeconds = seconds + (options.shortSeconds ?? 0);
      const direction = options.direction ?? 'O';
      return [
        {
          type,
          content,
          meta: {
            ...located,
            payload_end_time: iso(later(at, seconds)),
            payload_full_duration: seconds,
            voice_source: 'MIC',
            second_parties: [{ phone_number: other, contact_name: 'Northwind Trading', direction, start_time: iso(at), duration: callSeconds, connection_time: iso(later(at, 1)) }],
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
        { type, content: Buffer.alloc(0), meta: { ...located, payload_full_duration: 0, second_parties: [{ phone_number: other, direction: options.direction ?? 'O', start_time: iso(at), duration: 0 }] } },
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

/** What `uploadHeld` needs to make the same media again: the options that fix its time, party, text and length. */
function heldOf(type: RecordType, options: RecordOptions & { at: Date }): HeldRecording {
  return {
    type,
    at: options.at.toISOString(),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.otherNumber === undefined ? {} : { other_number: options.otherNumber }),
    ...(options.text === undefined ? {} : { text: options.text }),
    ...(options.direction === undefined ? {} : { direction: options.direction }),
    ...(options.shortSeconds === undefined ? {} : { short_seconds: options.shortSeconds }),
  };
}

function optionsOfHeld(held: HeldRecording): RecordOptions {
  return {
    at: new Date(held.at),
    ...(held.seed === undefined ? {} : { seed: held.seed }),
    ...(held.other_number === undefined ? {} : { otherNumber: held.other_number }),
    ...(held.text === undefined ? {} : { text: held.text }),
    ...(held.direction === undefined ? {} : { direction: held.direction }),
    ...(held.short_seconds === undefined ? {} : { shortSeconds: held.short_seconds }),
  };
}

/**
 * `record`: the media of `type` (an SMS thread is 4 payloads, an SMS with a given text one). The phone's ledger notes
 * each call and message first (its call log and message store see them whatever the recorder does); then each is
 * uploaded in order, or, as told, dropped or held back for `uploadHeld`.
 */
export async function record(sim: Simulator, state: DeviceState, type: RecordType, options: RecordOptions = {}): Promise<RecordResult[]> {
  const problem = recordOptionsProblem(type, options);
  if (problem !== undefined) throw new Error(problem);
  // One time for all: a held recording is made again from it, identical to what the ledger noted.
  const fixed = { ...options, at: options.at ?? new Date() };
  const recordings = demoRecordings(type, fixed);
  noteInLedger(state, recordings);
  if (fixed.drop === true) return recordings.map((recording) => ({ payload_type: recording.type, state: 'dropped' }));
  if (fixed.late === true) {
    state.held = [...(state.held ?? []), heldOf(type, fixed)];
    return recordings.map((recording) => ({ payload_type: recording.type, state: 'held' }));
  }
  const results: RecordResult[] = [];
  for (const recording of recordings) results.push(await uploadRecording(sim, state, recording, fixed));
  return results;
}

/**
 * Uploads what `record --late` held back, oldest first (the same media, time and parties as noted in the ledger). A
 * recording leaves the held list once every upload of it was taken; a refused one stays for the next run.
 */
export async function uploadHeld(sim: Simulator, state: DeviceState): Promise<RecordResult[]> {
  const results: RecordResult[] = [];
  for (const held of [...(state.held ?? [])]) {
    if (!(RECORD_TYPES as readonly string[]).includes(held.type)) throw new Error(`A held recording of type ${held.type} is not one the simulator records`);
    const options = optionsOfHeld(held);
    const uploads: RecordResult[] = [];
    for (const recording of demoRecordings(held.type as RecordType, options)) uploads.push(await uploadRecording(sim, state, recording, options));
    results.push(...uploads);
    if (uploads.every((upload) => upload.refused === undefined)) state.held = (state.held ?? []).filter((each) => each !== held);
  }
  return results;
}
