import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import {
  LEXICON_MESSAGE_TYPES,
  LEXICON_NOTES_TYPES,
  SAMPLING_TYPES,
  SUPERVISION_REVIEW_DAYS_DEFAULT,
  type SupervisionPolicyKind,
} from '#shared/constants/supervision.ts';
import { SupervisionPolicyRequest, type SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { SupervisionPolicyReference } from '#shared/contract/fields.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { checkPattern } from '#shared/permissions/matchers.ts';
import { termProblem } from '#shared/supervision/lexicon/index.ts';
import type { z } from 'zod';
import { conditionDraftOf, conditionOf, type ConditionDraft } from '../../../components/access/condition-draft.ts';

/**
 * The policy editor's model: the draft as the form holds it (terms as one text, one term a line), the request body it
 * stands for, and the live check — the contract's own schema (SupervisionPolicyRequest, whose terms are checked with
 * the engine's termProblem) plus the group-matcher check the server runs, each problem as a `path: message` line,
 * and each term's problem filed under its LINE of the text, so the editor can say "line 7: …".
 */
export interface PolicyDraft {
  reference: string;
  kind: SupervisionPolicyKind;
  description: string;
  isEnabled: boolean;
  conditions: ConditionDraft[];
  deviceUsers: string[];
  payloadTypes: PayloadType[];
  /** One term a line; blank lines are not terms. */
  termsText: string;
  /** As typed (a share from 0.1 to 100, to a tenth). */
  samplePercent: string;
  sampleMinimum: number;
  reviewDays: number;
}

/** The payload types each kind reads: a lexicon reads messages' text and the notes of the rest; sampling picks calls and media. */
export function typesReadBy(kind: SupervisionPolicyKind): readonly PayloadType[] {
  return kind === 'Sampling' ? SAMPLING_TYPES : [...LEXICON_MESSAGE_TYPES, ...LEXICON_NOTES_TYPES];
}

/**
 * The payload types a draft keeps when its kind changes: those the new kind reads (a type it cannot read would sit in
 * the scope unseen, since the editor offers only the kind's types), or all it reads when none is left.
 */
export function typesKeptFor(kind: SupervisionPolicyKind, types: readonly PayloadType[]): PayloadType[] {
  const readable = typesReadBy(kind);
  const kept = types.filter((type) => readable.includes(type));
  return kept.length > 0 ? kept : [...readable];
}

export function emptyPolicy(kind: SupervisionPolicyKind = 'Lexicon'): PolicyDraft {
  return {
    reference: '',
    kind,
    description: '',
    isEnabled: true,
    conditions: [],
    deviceUsers: [],
    payloadTypes: [...typesReadBy(kind)],
    termsText: '',
    samplePercent: kind === 'Sampling' ? '5' : '',
    sampleMinimum: 1,
    reviewDays: SUPERVISION_REVIEW_DAYS_DEFAULT,
  };
}

/** A stored policy as the editor shows it. */
export function draftOfPolicy(policy: SupervisionPolicy): PolicyDraft {
  return {
    reference: policy.policy_reference,
    kind: policy.kind,
    description: policy.description ?? '',
    isEnabled: policy.is_enabled,
    conditions: policy.scope.group_conditions.map(conditionDraftOf),
    deviceUsers: [...policy.scope.device_user_references],
    payloadTypes: [...policy.scope.payload_types],
    termsText: policy.terms.join('\n'),
    samplePercent: policy.sample_percent === undefined ? '' : String(policy.sample_percent),
    sampleMinimum: policy.sample_minimum,
    reviewDays: policy.review_days,
  };
}

/** One term of the text with the line it stands on (1-based, as an editor numbers lines). */
export interface TermLine {
  line: number;
  term: string;
}

/** The terms of the text: each non-blank line, trimmed, with its line number. */
export function termLinesOf(text: string): TermLine[] {
  return text.split(/\r\n|\r|\n/).flatMap((raw, index) => {
    const term = raw.trim();
    return term === '' ? [] : [{ line: index + 1, term }];
  });
}

/** A problem of one line of the terms. */
export interface TermLineProblem extends TermLine {
  problem: string;
}

/**
 * Each line's problem, live: the engine's own termProblem (the check the contract runs on save), and a repeat of an
 * earlier line (the contract compares terms case-insensitively, trimmed).
 */
export function termLineProblems(lines: readonly TermLine[]): TermLineProblem[] {
  const seen = new Map<string, number>();
  const problems: TermLineProblem[] = [];
  for (const { line, term } of lines) {
    const problem = termProblem(term);
    const key = term.toLowerCase();
    const first = seen.get(key);
    if (problem !== undefined) problems.push({ line, term, problem });
    else if (first !== undefined) problems.push({ line, term, problem: `Repeats line ${first}` });
    if (first === undefined) seen.set(key, line);
  }
  return problems;
}

/**
 * The server's `body.terms.<i>: message` lines put back on the lines of the text (the i-th term is the i-th non-blank
 * line); other lines are returned as they are.
 */
export function serverTermLines(lines: readonly string[], terms: readonly TermLine[]): { perLine: TermLineProblem[]; rest: string[] } {
  const perLine: TermLineProblem[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const match = /^body\.terms\.(\d+): (.*)$/s.exec(line);
    const term = match === null ? undefined : terms[Number(match[1])];
    if (match === null || term === undefined) rest.push(line);
    else perLine.push({ ...term, problem: match[2] as string });
  }
  return { perLine, rest };
}

/** The request body a draft stands for; fields a kind does not take are left out (the contract refuses them). */
export function requestOf(draft: PolicyDraft, terms: readonly TermLine[] = termLinesOf(draft.termsText)): z.input<typeof SupervisionPolicyRequest> {
  const sampling = draft.kind === 'Sampling';
  const percent = draft.samplePercent.trim();
  return {
    kind: draft.kind,
    ...(draft.description.trim() === '' ? {} : { description: draft.description.trim() }),
    is_enabled: draft.isEnabled,
    scope: {
      group_conditions: draft.conditions.map(conditionOf),
      device_user_references: draft.deviceUsers,
      payload_types: draft.payloadTypes,
    },
    terms: sampling ? [] : terms.map(({ term }) => term),
    // A share that is not a number goes as the text it is, so the contract names the field rather than the form guessing.
    ...(sampling && percent !== '' ? { sample_percent: Number.isNaN(Number(percent)) ? (percent as unknown as number) : Number(percent) } : {}),
    ...(sampling ? { sample_minimum: draft.sampleMinimum } : {}),
    ...(draft.kind === 'Ignore' ? {} : { review_days: draft.reviewDays }),
  };
}

export interface PolicyCheck {
  /** The request body, when every check passes. */
  body?: z.input<typeof SupervisionPolicyRequest>;
  /** `path: message` lines not about one term line (reference, scope, share, terms as a whole). */
  lines: string[];
  /** Each term line's problem (none for a sampling policy). */
  termProblems: TermLineProblem[];
  terms: TermLine[];
}

/** Live validation of a draft: the contract's schema and the server's matcher check, terms filed by line. */
export function checkPolicy(draft: PolicyDraft, options: { checkReference: boolean }): PolicyCheck {
  const terms = draft.kind === 'Sampling' ? [] : termLinesOf(draft.termsText);
  const lines: string[] = [];
  if (options.checkReference) {
    const reference = SupervisionPolicyReference.safeParse(draft.reference.trim());
    if (!reference.success) lines.push(...formatIssues(reference.error, 'params.policy_reference'));
  }
  const body = requestOf(draft, terms);
  const parsed = SupervisionPolicyRequest.safeParse(body);
  const termProblems = termLineProblems(terms);
  if (!parsed.success) {
    // Per-term problems are already on their lines; a repeat is too, when the lines found it.
    const split = serverTermLines(formatIssues(parsed.error, 'body'), terms);
    const repeatShown = termProblems.some((problem) => problem.problem.startsWith('Repeats line'));
    lines.push(...split.rest.filter((line) => !(repeatShown && line === 'body.terms: Must not repeat a term')));
  }
  draft.conditions.forEach((condition, index) => {
    const wire = conditionOf(condition);
    for (const field of ['names_matching', 'keys_matching', 'values_matching'] as const) {
      const pattern = wire[field];
      const problem = pattern === undefined ? undefined : checkPattern(pattern, wire.is_regex === true);
      if (problem !== undefined) lines.push(`body.scope.group_conditions.${index}.${field}: ${problem}`);
    }
  });
  const ok = lines.length === 0 && termProblems.length === 0 && parsed.success;
  return ok ? { body, lines, termProblems, terms } : { lines, termProblems, terms };
}

const list = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;

function conditionWords(condition: Record<string, unknown>): string {
  const verb = condition.is_regex === true ? 'matches' : 'is like';
  const quote = (pattern: unknown) => (condition.is_regex === true ? `/${String(pattern)}/` : `"${String(pattern)}"`);
  const parts: string[] = [];
  if (typeof condition.names_matching === 'string') parts.push(`whose name ${verb} ${quote(condition.names_matching)}`);
  if (typeof condition.keys_matching === 'string') parts.push(`with a tag whose key ${verb} ${quote(condition.keys_matching)}`);
  if (typeof condition.values_matching === 'string') parts.push(`with a tag whose value ${verb} ${quote(condition.values_matching)}`);
  return parts.join(' and ');
}

/**
 * Whose recordings a policy reads, in words, for the list: e.g. `SMS, MMS and RCS of groups whose name is like
 * "sales-*" and device users du-1 and du-2`. No groups and no device users: everyone recorded.
 */
export function scopeWords(scope: SupervisionPolicy['scope'], labels: Record<PayloadType, string>): string {
  const types = scope.payload_types.length === PAYLOAD_TYPES.length ? 'Every type' : list(scope.payload_types.map((type) => labels[type]));
  const conditions = scope.group_conditions as Record<string, unknown>[];
  const including = conditions.filter((condition) => condition.is_denied !== true).map(conditionWords);
  const excluding = conditions.filter((condition) => condition.is_denied === true).map(conditionWords);
  const who: string[] = [];
  if (including.length > 0) who.push(`groups ${including.join(', or ')}`);
  else if (excluding.length > 0) who.push('every group');
  if (excluding.length > 0) who[who.length - 1] += ` except groups ${excluding.join(', or ')}`;
  const people = scope.device_user_references;
  if (people.length > 0) who.push(people.length <= 3 ? `device users ${list(people)}` : `${people.length} named device users`);
  return `${types} of ${who.length === 0 ? 'everyone recorded' : list(who)}`;
}

/** What a policy raises, in a few words for the list: its terms count, or its sample share and minimum. */
export function ruleWords(policy: Pick<SupervisionPolicy, 'kind' | 'terms' | 'sample_percent' | 'sample_minimum'>): string {
  if (policy.kind === 'Sampling') {
    const minimum = policy.sample_minimum > 0 ? `, at least ${policy.sample_minimum} a person a day` : '';
    return `${policy.sample_percent ?? 0} % of each person's recordings${minimum}`;
  }
  return `${policy.terms.length} ${policy.terms.length === 1 ? 'term' : 'terms'}`;
}
