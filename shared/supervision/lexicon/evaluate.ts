import { scanWords } from './automaton.ts';
import type { CompiledLexicon, CompiledTerm } from './compile.ts';
import { nearParts, nearStretches } from './near.ts';
import { fitPhrases, type Occurrence, type PhraseIndex } from './phrase-fit.ts';
import { wordsOf } from './words.ts';

/** A span of the text, in UTF-16 code units of the text as given (end exclusive), so `text.slice(start, end)`. */
export interface TextMatch {
  readonly start: number;
  readonly end: number;
}

/** One term of one policy that matched, and where. */
export interface LexiconHit {
  readonly policy_reference: string;
  readonly term: string;
  readonly matches: TextMatch[];
}

/** Everything the engine saw in a text: for a term tester, which shows the ignored spans and what they suppressed. */
export interface LexiconReading {
  /** Lexicon terms that matched outside every ignored span: what raises an item. */
  readonly hits: LexiconHit[];
  /** Ignore terms that matched: the spans of known noise. */
  readonly ignored: LexiconHit[];
  /** Lexicon matches left out because they lay inside an ignored span. */
  readonly suppressed: LexiconHit[];
}

export interface EvaluateOptions {
  /** Only these policies (Lexicon and Ignore alike) apply, e.g. those whose scope covers the recording. */
  readonly policies?: ReadonlySet<string>;
}

/** Each found phrase's occurrences in text order, by phrase index. */
function findPhrases(compiled: CompiledLexicon, text: string): Map<number, Occurrence[]> | undefined {
  const words = wordsOf(text);
  const spans = scanWords(compiled.automaton, words.forms);
  // Most texts hold no term at all: they leave without allocating anything more.
  if (spans.length === 0) return undefined;
  const found = new Map<number, Occurrence[]>();
  for (let k = 0; k < spans.length; k += 3) {
    fitPhrases(compiled.patterns[spans[k] as number] as PhraseIndex, text, words, spans[k + 1] as number, spans[k + 2] as number, found);
  }
  return found;
}

/** The terms that may match: those triggered by a found phrase, in the compiled (policy, term) order. */
function candidateTerms(compiled: CompiledLexicon, found: Map<number, Occurrence[]>, options: EvaluateOptions): number[] {
  const candidates: number[] = [];
  for (const phrase of found.keys()) {
    for (const term of compiled.termsTriggeredBy[phrase] ?? []) {
      if (options.policies === undefined || options.policies.has((compiled.terms[term] as CompiledTerm).policy_reference)) candidates.push(term);
    }
  }
  return candidates.sort((a, b) => a - b);
}

/** Each phrase's occurrences, leaving out those inside an ignored span once there are any. */
class Occurrences {
  private readonly outside = new Map<number, readonly Occurrence[]>();
  ignored: readonly TextMatch[] = [];

  constructor(private readonly found: Map<number, Occurrence[]>) {}

  of(phrase: number): readonly Occurrence[] {
    const all = this.found.get(phrase) ?? [];
    if (this.ignored.length === 0) return all;
    let kept = this.outside.get(phrase);
    if (kept === undefined) {
      kept = all.filter((occurrence) => !insideIgnored(occurrence, this.ignored));
      this.outside.set(phrase, kept);
    }
    return kept;
  }

  all(phrase: number): readonly Occurrence[] {
    return this.found.get(phrase) ?? [];
  }
}

/** Where a term matches, given each phrase's occurrences (all, or those outside the ignored spans). */
function termMatches(term: CompiledTerm, occurrences: Occurrences, outsideIgnored: boolean): TextMatch[] {
  const of = (phrase: number) => (outsideIgnored ? occurrences.of(phrase) : occurrences.all(phrase));
  if (term.operator === 'phrase') return of(term.phrase).map(spanOf);
  if (term.operator === 'not') return of(term.unless).length > 0 ? [] : of(term.phrase).map(spanOf);
  if (term.kind === 'Ignore') return nearStretches(of(term.first), of(term.second), term.distance);
  return nearParts(of(term.first), of(term.second), term.distance).map(spanOf);
}

const spanOf = (occurrence: TextMatch): TextMatch => ({ start: occurrence.start, end: occurrence.end });

const before = (a: TextMatch, b: TextMatch) => a.start < b.start || (a.start === b.start && a.end < b.end);

/** Sorted by start then end, without repeats (most lists already are: one pass checks). */
function ordered(matches: TextMatch[]): TextMatch[] {
  let inOrder = true;
  for (let i = 1; i < matches.length && inOrder; i += 1) inOrder = before(matches[i - 1] as TextMatch, matches[i] as TextMatch);
  if (inOrder) return matches;
  matches.sort((a, b) => a.start - b.start || a.end - b.end);
  return matches.filter((match, index) => index === 0 || match.start !== (matches[index - 1] as TextMatch).start || match.end !== (matches[index - 1] as TextMatch).end);
}

/** Ignored spans merged into disjoint, sorted stretches. */
function mergeSpans(spans: TextMatch[]): TextMatch[] {
  const merged: { start: number; end: number }[] = [];
  for (const span of ordered(spans)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ start: span.start, end: span.end });
  }
  return merged;
}

/** Whether the span lies wholly inside one of the merged ignored stretches (binary search). */
function insideIgnored(span: TextMatch, ignored: readonly TextMatch[]): boolean {
  let low = 0;
  let high = ignored.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const stretch = ignored[middle] as TextMatch;
    if (stretch.start > span.start) high = middle - 1;
    else if (stretch.end < span.end) low = middle + 1;
    else return true;
  }
  return false;
}

/**
 * Reads a text with every policy's terms. Ignore terms are found first and mark spans; a Lexicon phrase occurrence
 * wholly inside an ignored span is treated as absent (so it neither matches, nor pairs in NEAR, nor vetoes in NOT).
 * Hits come in the compiled order (policies as given, terms as written), matches in text order. Never throws.
 */
export function readLexicon(compiled: CompiledLexicon, text: string, options: EvaluateOptions = {}): LexiconReading {
  return read(compiled, text, options, true);
}

function read(compiled: CompiledLexicon, text: string, options: EvaluateOptions, withSuppressed: boolean): LexiconReading {
  const reading: LexiconReading = { hits: [], ignored: [], suppressed: [] };
  const found = findPhrases(compiled, text);
  if (found === undefined || found.size === 0) return reading;
  const candidates = candidateTerms(compiled, found, options);
  const occurrences = new Occurrences(found);
  const ignoredSpans: TextMatch[] = [];
  for (const index of candidates) {
    const term = compiled.terms[index] as CompiledTerm;
    if (term.kind !== 'Ignore') continue;
    const matches = ordered(termMatches(term, occurrences, false));
    if (matches.length === 0) continue;
    reading.ignored.push({ policy_reference: term.policy_reference, term: term.term, matches });
    ignoredSpans.push(...matches);
  }
  if (ignoredSpans.length > 0) occurrences.ignored = mergeSpans(ignoredSpans);
  for (const index of candidates) {
    const term = compiled.terms[index] as CompiledTerm;
    if (term.kind !== 'Lexicon') continue;
    const matches = ordered(termMatches(term, occurrences, true));
    if (matches.length > 0) reading.hits.push({ policy_reference: term.policy_reference, term: term.term, matches });
    if (ignoredSpans.length === 0 || !withSuppressed) continue;
    const raised = new Set(matches.map((match) => `${match.start}:${match.end}`));
    const lost = ordered(termMatches(term, occurrences, false)).filter((match) => !raised.has(`${match.start}:${match.end}`));
    if (lost.length > 0) reading.suppressed.push({ policy_reference: term.policy_reference, term: term.term, matches: lost });
  }
  return reading;
}

/** The hits of a text: what raises a supervision item. Offsets are in the text as given. */
export function evaluateLexicon(compiled: CompiledLexicon, text: string, options: EvaluateOptions = {}): LexiconHit[] {
  return read(compiled, text, options, false).hits;
}
