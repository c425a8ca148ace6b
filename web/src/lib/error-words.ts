import { wordingOf } from '#shared/contract/action-wording.ts';

/**
 * What a refusal or an error says to a person, from the API's lines (DESIGN.md §9: `path: message`, or a status code
 * such as `NoMatchingRecord: …` first). The API keeps its codes for programs; people read what was refused and why:
 * "Your roles do not allow downloading recordings." rather than "Your roles do not allow payloads:Download", "This
 * recording was not found." rather than "NoMatchingRecord: Payload not found". Lines naming a field (`body.x: …`)
 * are left as they are: forms place them beside the field.
 */

/** The payload data statuses (spec point 8) in words. */
const PAYLOAD_STATUS_WORDS: Readonly<Record<string, string>> = {
  NoMatchingRecord: 'This recording was not found: it may have been deleted, or its file is not ready yet.',
  NoS3Url: 'This recording has no file to open: aborted and blocked calls are not recorded.',
  GroupNotAuthorised: 'Your roles do not allow recordings of this group.',
  TypeNotAuthorised: 'Your roles do not allow this kind of recording.',
};

/** `<area>:<Verb>` as the catalogue names actions. */
const ACTION_CODE = /\b([a-z][A-Za-z]*:[A-Z][A-Za-z]*)\b/;

/** "your roles do not allow <action or words> [(<action>)] [on group "<g>"]", as the API's authorisation says it. */
const ROLES_REFUSE = /^(?:Access denied: )?your roles do not allow (.+?)(?: on group "([^"]*)")?\.?$/i;

/** One line in words (see the module note). */
export function wordsForLine(line: string): string {
  const status = /^(NoMatchingRecord|NoS3Url|GroupNotAuthorised|TypeNotAuthorised)\b/.exec(line);
  if (status !== null) return PAYLOAD_STATUS_WORDS[status[1] as string] as string;
  const refused = ROLES_REFUSE.exec(line.trim());
  if (refused !== null) {
    const action = ACTION_CODE.exec(refused[1] as string)?.[1];
    const doing = action === undefined ? (refused[1] as string) : wordingOf(action).doing;
    const group = refused[2] === undefined ? '' : ` in group ${refused[2]}`;
    return `Your roles do not allow ${doing}${group}.`;
  }
  return line;
}

/** The lines of an error answer in words, for a person; an empty answer says what the status means. */
export function wordsForError(status: number, lines: readonly string[]): string[] {
  const said = lines.map(wordsForLine);
  if (said.length > 0) return said;
  if (status === 403) return ['Your roles do not allow this.'];
  if (status === 404) return ['This was not found.'];
  if (status >= 500) return ['The server could not answer. Please try again in a moment.'];
  return [`The request was refused (HTTP ${status}).`];
}
