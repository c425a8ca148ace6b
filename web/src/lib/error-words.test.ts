import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from '#shared/contract/actions.ts';
import { wordsForError, wordsForLine } from './error-words.ts';

describe('wordsForLine', () => {
  it('says which act the roles refuse, in words, whichever form the API used', () => {
    expect(wordsForLine('Your roles do not allow payloads:Download')).toBe('Your roles do not allow downloading recordings.');
    expect(wordsForLine('Access denied: your roles do not allow downloading recordings (payloads:Download)')).toBe('Your roles do not allow downloading recordings.');
    expect(wordsForLine('Access denied: your roles do not allow deviceUsers:Create on group "north"')).toBe('Your roles do not allow onboarding device users in group north.');
  });

  it('says the payload data statuses in words', () => {
    expect(wordsForLine('NoMatchingRecord: Payload not found')).toBe('This recording was not found: it may have been deleted, or its file is not ready yet.');
    expect(wordsForLine("GroupNotAuthorised: Your roles do not open this payload's group")).toBe('Your roles do not allow recordings of this group.');
    expect(wordsForLine('TypeNotAuthorised')).toBe('Your roles do not allow this kind of recording.');
    expect(wordsForLine('NoS3Url: Aborted and blocked calls have no recording')).toContain('no file');
  });

  it('leaves a field line as it is, for the form to place it', () => {
    expect(wordsForLine('body.message: Must be at most 4000 characters')).toBe('body.message: Must be at most 4000 characters');
  });

  it('never shows an action code for any action of the catalogue', () => {
    for (const action of ACTION_NAMES) {
      const words = wordsForLine(`Access denied: your roles do not allow ${action}`);
      expect(words, action).not.toContain(action);
      expect(words, action).toMatch(/^Your roles do not allow [a-z]/);
    }
  });
});

describe('wordsForError', () => {
  it('says what an empty answer means', () => {
    expect(wordsForError(403, [])).toEqual(['Your roles do not allow this.']);
    expect(wordsForError(503, [])[0]).toContain('try again');
  });
});
