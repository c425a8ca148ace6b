import { describe, expect, it } from 'vitest';
import { META_BY_TYPE } from '#shared/contract/entities/payloads.ts';
import { demoRecordings, record, recordOptionsProblem } from './recorder.ts';
import type { DeviceState } from './device-state.ts';
import type { Simulator } from './simulator.ts';

/** What the simulator records when told what to say: the text a lexicon policy reads, with meta the pipeline accepts. */
describe('recordings with a given text or notes', () => {
  const at = new Date('2026-03-02T10:00:00Z');

  it('sends one SMS whose content is exactly the text, sent by the phone unless told otherwise', () => {
    const text = 'Off the record: I guarantee 20 % — delete this 🙂';
    const recordings = demoRecordings('SMS', { text, at });
    expect(recordings).toHaveLength(1);
    const [sms] = recordings;
    expect(sms?.type).toBe('SMS');
    expect(sms?.content.toString('utf8')).toBe(text);
    expect(sms?.meta).toMatchObject({ direction: 'O', length: text.length, payload_time: at.toISOString() });
    expect(META_BY_TYPE.SMS.safeParse(sms?.meta).success).toBe(true);
    expect(demoRecordings('SMS', { text, direction: 'I' })[0]?.meta.direction).toBe('I');
  });

  it('keeps the demo thread (3 texts and an MMS) when no text is given', () => {
    expect(demoRecordings('SMS', { at }).map((recording) => recording.type)).toEqual(['SMS', 'SMS', 'SMS', 'MMS']);
  });

  it('puts given notes on an interview, a photo and a video, and keeps the demo notes otherwise', () => {
    for (const type of ['Interview', 'Photo', 'Video'] as const) {
      const [noted] = demoRecordings(type, { notes: 'Client asked to move this to WhatsApp', at });
      expect(noted?.meta.payload_notes, type).toBe('Client asked to move this to WhatsApp');
      expect(META_BY_TYPE[type].safeParse(noted?.meta).success, type).toBe(true);
      expect(demoRecordings(type, { at })[0]?.meta.payload_notes, type).toMatch(/\(simulated\)$/);
    }
  });

  it('refuses a text on anything but an SMS, notes on what has none, and a direction without a text', () => {
    expect(recordOptionsProblem('SMS', { text: 'hello' })).toBeUndefined();
    expect(recordOptionsProblem('Photo', { notes: 'hello' })).toBeUndefined();
    expect(recordOptionsProblem('Call', { text: 'hello' })).toBe('A text is sent as an SMS: --text needs --type SMS');
    expect(recordOptionsProblem('SMS', { notes: 'hello' })).toBe('Notes belong to Interview, Photo, Video: --notes needs one of those types');
    expect(recordOptionsProblem('SMS', { direction: 'I' })).toBe('A direction is that of a call or of a given text: --direction needs --type Call or --text');
    expect(recordOptionsProblem('Call', { direction: 'I' })).toBeUndefined();
  });

  it('refuses such options before the phone calls the server', async () => {
    // Any call would fail differently: nothing listens here and the phone has no key.
    const sim: Simulator = { baseUrl: 'http://127.0.0.1:9', enrolmentKey: () => Promise.reject(new Error('called the server')) };
    const phone = { name: 'p', client: 'demo' } as DeviceState;
    await expect(record(sim, phone, 'Call', { text: 'guarantee' })).rejects.toThrow('--text needs --type SMS');
  });
});
