import { compileRegex as compileProgram, runProgram } from './linear-regex/program.ts';
import { PatternError } from './linear-regex/parse.ts';

/**
 * Matchers used by permissions and conditions. Both kinds are anchored (the whole value must match) and
 * case-sensitive, so `devices:*` never matches `xdevices:List` and a regex `devices:.*` reads the same way.
 *
 * - Wildcard (default): `*` matches any run of characters (also none), `?` exactly one; everything else is literal.
 * - Regex (`is_regex`): a subset of RE2 syntax, run by our own engine (`linear-regex/`) in time linear in the input,
 *   so a tenant's pattern such as `(a+)+$` can never hang the server. Constructs outside the subset (look-around,
 *   back-references, Unicode classes, inline flags, …) are refused by `checkPattern` when a role is saved, naming
 *   the construct; a stored pattern that does not compile never matches.
 */

/** Longest accepted pattern (the contract allows 255 characters per matcher). */
export const MAX_PATTERN_LENGTH = 255;

/** Compiled matchers (undefined: the pattern is unreadable), bounded so tenant patterns cannot grow memory without limit. */
const cache = new Map<string, ((value: string) => boolean) | undefined>();
const CACHE_LIMIT = 2000;

const never = (): boolean => false;

/** Wildcard match, greedy with one back-track point per `*`: O(pattern × value) worst case, no recursion. */
function wildcardMatches(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  let star = -1;
  let resume = 0;
  while (v < value.length) {
    const char = pattern[p];
    if (char === '?' || (char !== undefined && char !== '*' && char === value[v])) {
      p += 1;
      v += 1;
    } else if (char === '*') {
      star = p;
      resume = v;
      p += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      v = resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p += 1;
  return p === pattern.length;
}

function compileRegex(pattern: string): ((value: string) => boolean) | undefined {
  try {
    const program = compileProgram(pattern);
    return (value) => runProgram(program, value).matched;
  } catch {
    return undefined;
  }
}

/** The predicate for one matcher, or undefined when the pattern is unreadable (invalid regex, empty, over-long). */
function readMatcher(pattern: string, isRegex: boolean): ((value: string) => boolean) | undefined {
  const key = `${isRegex ? 'r' : 'w'}:${pattern}`;
  if (cache.has(key)) return cache.get(key);
  let predicate: ((value: string) => boolean) | undefined;
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) predicate = undefined;
  else if (isRegex) predicate = compileRegex(pattern);
  else predicate = (value: string) => wildcardMatches(pattern, value);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, predicate);
  return predicate;
}

/** A predicate for one matcher. An invalid regex (or an over-long pattern) gives a predicate that never matches. */
export function compileMatcher(pattern: string, isRegex: boolean): (value: string) => boolean {
  return readMatcher(pattern, isRegex) ?? never;
}

/** Does `value` match the pattern? */
export function matches(pattern: string, isRegex: boolean, value: string): boolean {
  return compileMatcher(pattern, isRegex)(value);
}

/**
 * Like `matches`, but an unreadable pattern gives `whenUnreadable`. Permission evaluation passes the restrictive
 * answer, so a stored rule this engine cannot read (say a deny saved while RE2 constructs we leave out, such as `\b`
 * or `(?i)`, were accepted) fails closed instead of silently granting.
 */
export function matchesOr(pattern: string, isRegex: boolean, value: string, whenUnreadable: boolean): boolean {
  const predicate = readMatcher(pattern, isRegex);
  return predicate === undefined ? whenUnreadable : predicate(value);
}

/**
 * Validation for the role editor and the role service: undefined when the pattern is usable, else a friendly
 * message saying why not (shown as `path: message`).
 */
export function checkPattern(pattern: string, isRegex: boolean): string | undefined {
  if (pattern.length === 0) return 'Must not be empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `Must be at most ${MAX_PATTERN_LENGTH} characters`;
  if (!isRegex) return undefined;
  try {
    compileProgram(pattern);
    return undefined;
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    return `Must be a valid regular expression (RE2 syntax): the pattern ${error.message}`;
  }
}
