import { describe, expect, it } from 'vitest';
import { notesOf, SUPERVISED_TEXT_MAX_BYTES, textOfBytes } from './recording-text.ts';

describe('the text supervision reads', () => {
  it('reads a message as UTF-8 and leaves out a character the bound cut in two', () => {
    const bytes = Buffer.from('Prix garanti €', 'utf8');
    expect(textOfBytes(bytes, 'SMS')).toBe('Prix garanti €');
    // The euro sign is three bytes: cut after its first two, it is left out rather than read as garbage.
    expect(textOfBytes(bytes.subarray(0, bytes.length - 1), 'SMS')).toBe('Prix garanti ');
  });

  it('reads an SMS with a bad byte as the portal shows it, and an MMS media part as no text', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);
    expect(textOfBytes(jpeg, 'MMS')).toBeUndefined();
    expect(textOfBytes(Buffer.from([0x68, 0x69, 0xff, 0x21]), 'SMS')).toBe('hi\uFFFD!');
    expect(textOfBytes(Buffer.from('see attached', 'utf8'), 'MMS')).toBe('see attached');
  });

  it('takes the notes of a meta, bounded, and nothing else of it', () => {
    expect(notesOf({ payload_notes: 'Client asked about guarantees', payload_time: 'x' })).toBe('Client asked about guarantees');
    expect(notesOf({ payload_notes: 7 })).toBeUndefined();
    expect(notesOf(null)).toBeUndefined();
    expect(notesOf({ payload_notes: 'x'.repeat(SUPERVISED_TEXT_MAX_BYTES + 10) })?.length).toBe(SUPERVISED_TEXT_MAX_BYTES);
  });
});
