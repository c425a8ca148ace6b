import { formatIssues } from '#shared/contract/messages.ts';
import type { z } from 'zod';

/** A line is capped so hostile input (a 100 KiB unknown key) cannot make a huge error body. */
const MAX_LINE = 300;
const MAX_LINES = 50;

/**
 * `prefix.path: message` lines for a failed parse, in the spec's friendly wording (shared `formatIssues`), capped in
 * number and length. `field` names a value parsed on its own (the path's `client`) so its lines read `params.client`.
 */
export function issueLines(prefix: string, error: z.ZodError, field?: string): string[] {
  const issues = field === undefined ? error.issues : error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }));
  const lines = formatIssues({ issues }, prefix);
  const capped = lines.slice(0, MAX_LINES).map(capLine);
  if (lines.length > MAX_LINES) capped.push(`${prefix}: ${lines.length - MAX_LINES} more problems`);
  return capped;
}

export function capLine(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
