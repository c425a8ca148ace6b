import { ApiError } from './api-error.ts';

/**
 * A refused request's `path: message` lines (DESIGN.md §9), split between the form's fields and the form as a whole.
 * `field[name]` is the message to show under that field's label (Mantine's `error` prop); `general` are the lines
 * that name no field of the form, shown above it.
 */
export interface FormErrors<F extends string> {
  field: Partial<Record<F, string>>;
  general: string[];
}

/** Which wire path(s) each form field stands for, e.g. `{ group: 'body.group', reference: 'params.group_reference' }`. */
export type FieldPaths<F extends string> = Record<F, string | readonly string[]>;

/** `{ name: 'body.name', … }` for form fields named exactly as the request body's fields. */
export function bodyFieldPaths<F extends string>(fields: readonly F[]): FieldPaths<F> {
  return Object.fromEntries(fields.map((field) => [field, `body.${field}`])) as FieldPaths<F>;
}

/** The lines a failed call (or a form's own check, as an Error whose message holds them) carries. */
export function errorLinesOf(error: unknown): string[] {
  if (error instanceof ApiError) return [...error.lines];
  if (error instanceof Error && error.message !== '') return error.message.split('\n');
  return [];
}

/** Does `path` (from a line) concern `fieldPath`: the same path, or one inside it (`body.tags.0.tag_key` in `body.tags`)? */
function within(path: string, fieldPath: string): boolean {
  return path === fieldPath || path.startsWith(`${fieldPath}.`) || path.startsWith(`${fieldPath}[`);
}

/**
 * Splits `path: message` lines over the form's fields. A line goes to the field whose path is the longest one it
 * falls within; a field keeps its first message only (one problem at a time reads best under a label). A line inside
 * a field but deeper (`body.tags.0.tag_key`) keeps its sub-path in the message so the user knows which entry it is.
 */
export function formErrorsOf<F extends string>(lines: readonly string[], paths: FieldPaths<F>): FormErrors<F> {
  const candidates = (Object.entries(paths) as [F, string | readonly string[]][])
    .flatMap(([field, value]) => (typeof value === 'string' ? [value] : [...value]).map((path) => ({ field, path })))
    .sort((a, b) => b.path.length - a.path.length);
  const field: Partial<Record<F, string>> = {};
  const general: string[] = [];
  for (const line of lines) {
    const separator = line.indexOf(': ');
    const path = separator < 0 ? '' : line.slice(0, separator);
    const message = separator < 0 ? line : line.slice(separator + 2);
    const match = path === '' ? undefined : candidates.find((candidate) => within(path, candidate.path));
    if (match === undefined) {
      general.push(line);
      continue;
    }
    const detail = path === match.path ? message : `${path.slice(match.path.length).replace(/^[.[]/, '')}: ${message}`;
    field[match.field] ??= detail;
  }
  return { field, general };
}
