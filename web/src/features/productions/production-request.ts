import type * as z from 'zod';
import { TRANSFERABLE_PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import { CreateSearchProduction, type ProductionDestination } from '#shared/contract/entities/productions.ts';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { formatIssues } from '#shared/contract/messages.ts';

/**
 * The model of "New production" on /dashboard/productions (docs/productions.md): what the form holds, the request it
 * sends (`POST productions`, CreateSearchProduction) and the `path: message` lines it refuses locally. Pure, so its
 * tests need no screen.
 */

/** A search production (custodians, optionally narrowed by numbers) or a client copy (by counterparty number only). */
export type ProductionFormKind = 'Search' | 'ClientCopy';

/** The destination select's value for "a download link"; any other value is a transfer configuration's reference. */
export const DOWNLOAD_TARGET = 'download';

/**
 * The types a production offers: those with content to hand over (the transfers' list). An aborted or blocked call is
 * a fact without a recording, and diagnostics are the phone's, not a conversation.
 */
export const PRODUCIBLE_TYPES: readonly PayloadType[] = TRANSFERABLE_PAYLOAD_TYPES;
/** Conversations: what a client's copy (MiFID II Art 16(7)) and most searches ask for. */
const CONVERSATION_TYPES: readonly PayloadType[] = ['Call', 'SMS', 'RCS', 'MMS'];

export interface ProductionDraft {
  kind: ProductionFormKind;
  /** Device user references (picked by name). */
  custodians: string[];
  numbers: string[];
  /** Days (`YYYY-MM-DD`, UTC), both included. */
  period: { from: string | undefined; to: string | undefined };
  types: PayloadType[];
  prefix: string;
  /** DOWNLOAD_TARGET, or a transfer configuration's reference. */
  target: string;
}

export function emptyDraft(kind: ProductionFormKind): ProductionDraft {
  return { kind, custodians: [], numbers: [], period: { from: undefined, to: undefined }, types: [...CONVERSATION_TYPES], prefix: '', target: DOWNLOAD_TARGET };
}

/** The contract paths of the form's fields: the server's refusals and the form's own land under their field. */
export const PRODUCTION_FORM_PATHS = {
  custodians: 'body.criteria.custodians',
  numbers: 'body.criteria.counterparty_numbers',
  from: 'body.criteria.from',
  to: 'body.criteria.to',
  types: 'body.criteria.payload_types',
  prefix: 'body.control_prefix',
  destination: 'body.destination',
} as const;

/** A picked day as the period's start or end: the API's ISO time, UTC, both days included. */
export function dayBound(day: string, end: 'from' | 'to'): string {
  return `${day}T${end === 'from' ? '00:00:00' : '23:59:59'}Z`;
}

export function destinationOf(target: string): ProductionDestination {
  return target === DOWNLOAD_TARGET ? { type: 'Download' } : { type: 'Transfer', transfer_config_reference: target };
}

/** Numbers as typed, trimmed, blanks and repeats dropped (the same number twice selects nothing more). */
function numbersOf(typed: readonly string[]): string[] {
  return [...new Set(typed.map((number) => number.trim()).filter((number) => number !== ''))];
}

/** What the form sends: a client copy names no custodian (the server refuses one), a search its custodians. */
export function productionBodyOf(draft: ProductionDraft): Record<string, unknown> {
  const numbers = numbersOf(draft.numbers);
  return {
    control_prefix: draft.prefix.trim(),
    destination: destinationOf(draft.target),
    ...(draft.kind === 'ClientCopy' ? { client_copy: true } : {}),
    criteria: {
      ...(draft.kind === 'Search' ? { custodians: draft.custodians } : {}),
      ...(numbers.length === 0 ? {} : { counterparty_numbers: numbers }),
      ...(draft.period.from === undefined ? {} : { from: dayBound(draft.period.from, 'from') }),
      ...(draft.period.to === undefined ? {} : { to: dayBound(draft.period.to, 'to') }),
      payload_types: draft.types,
    },
  };
}

/**
 * The request, or the lines that stop it before it is sent: what the server would refuse for certain (no custodian
 * for a search, no number for a client copy, a missing or reversed period, no type, no prefix) in the form's words,
 * then the contract's own checks (the prefix's characters, the bounds) word for word as the server says them.
 */
export function productionRequestOf(draft: ProductionDraft): { ok: true; body: z.output<typeof CreateSearchProduction> } | { ok: false; lines: string[] } {
  const paths = PRODUCTION_FORM_PATHS;
  const lines: string[] = [];
  if (draft.kind === 'Search' && draft.custodians.length === 0) lines.push(`${paths.custodians}: Pick at least one device user`);
  if (draft.kind === 'ClientCopy' && numbersOf(draft.numbers).length === 0) lines.push(`${paths.numbers}: Give the client's number: a client copy is by counterparty number`);
  if (draft.period.from === undefined) lines.push(`${paths.from}: Choose the first day`);
  if (draft.period.to === undefined) lines.push(`${paths.to}: Choose the last day`);
  if (draft.period.from !== undefined && draft.period.to !== undefined && draft.period.from > draft.period.to) lines.push(`${paths.from}: Must not be after the last day`);
  if (draft.types.length === 0) lines.push(`${paths.types}: Choose at least one payload type`);
  if (draft.prefix.trim() === '') lines.push(`${paths.prefix}: Give the control numbers a prefix`);
  const parsed = CreateSearchProduction.safeParse(productionBodyOf(draft));
  if (!parsed.success) {
    const said = new Set(lines.map((line) => line.slice(0, line.indexOf(': '))));
    // A field the form has already spoken about (a missing day) keeps the form's words, not the contract's.
    lines.push(...formatIssues(parsed.error, 'body').filter((line) => !said.has(line.slice(0, line.indexOf(': ')))));
  }
  return lines.length > 0 || !parsed.success ? { ok: false, lines } : { ok: true, body: parsed.data };
}

const FORMAT_WORDS: Record<TransferConfig['transfer_file_format'], string> = {
  Uncompressed: 'uncompressed',
  Zipped: 'zipped',
  ZippedWithPassword: 'zipped with a password',
};

/** A transfer configuration as a destination, by its name: "demo-sftp (SFTP, zipped with a password, PGP)". */
export function transferTargetLabel(config: Pick<TransferConfig, 'transfer_config_reference' | 'target_type' | 'transfer_file_format' | 'pgp_key'>): string {
  const packaging = [config.target_type, FORMAT_WORDS[config.transfer_file_format], ...(config.pgp_key === undefined || config.pgp_key === '' ? [] : ['PGP'])];
  return `${config.transfer_config_reference} (${packaging.join(', ')})`;
}

/** A device user as the custodian picker offers them: by name, with the reference to tell two namesakes apart. */
export function custodianOption(user: { device_user_reference: string; first_name?: string | undefined; surname?: string | undefined }): { value: string; label: string } {
  const name = [user.first_name, user.surname].filter(Boolean).join(' ');
  return { value: user.device_user_reference, label: name === '' ? user.device_user_reference : `${name} (${user.device_user_reference})` };
}

/**
 * The picker's options: those the search found, and the people already picked (as they were labelled when picked),
 * so the field still names them while the search moves on.
 */
export function custodianOptions(found: readonly { value: string; label: string }[], picked: readonly string[], labels: ReadonlyMap<string, string>) {
  const shown = new Set(found.map((option) => option.value));
  return [...found, ...picked.filter((reference) => !shown.has(reference)).map((reference) => ({ value: reference, label: labels.get(reference) ?? reference }))];
}
