import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { compileLexicon, readLexicon, type CompiledLexicon, type LexiconHit, type LexiconPolicy, type LexiconReading } from '#shared/supervision/lexicon/index.ts';

/**
 * The term tester: the policy being edited, read in the browser with the same engine the server raises items with
 * (compileLexicon + readLexicon), together with the tenant's other enabled policies that change what it raises — every
 * Ignore policy when a lexicon is edited (their spans suppress its matches), and every Lexicon policy when an ignore
 * policy is edited (to show what it would suppress). Scope is not applied: the tester has a text, not a recording.
 */

/** The reference the draft is tested under when it has none yet (a new policy). */
export const DRAFT_REFERENCE = '(this policy)';

export interface TesterPolicies {
  draft: { reference: string; kind: 'Lexicon' | 'Ignore'; terms: readonly string[] };
  /** The tenant's stored policies (the draft's own stored version is left out). */
  others: readonly Pick<SupervisionPolicy, 'policy_reference' | 'kind' | 'is_enabled' | 'terms'>[];
}

/** The policies the tester compiles: the draft first, then the others that bear on it. */
export function testerPolicies({ draft, others }: TesterPolicies): LexiconPolicy[] {
  const reference = draft.reference.trim() === '' ? DRAFT_REFERENCE : draft.reference.trim();
  // A lexicon meets the ignore policies; an ignore policy meets the lexicons it would silence and the other ignore
  // policies, whose spans merge with its own.
  const bears = (kind: string) => kind === 'Ignore' || (draft.kind === 'Ignore' && kind === 'Lexicon');
  const bearing = others.flatMap((policy) =>
    policy.is_enabled && policy.policy_reference !== reference && bears(policy.kind)
      ? [{ policy_reference: policy.policy_reference, kind: policy.kind as 'Lexicon' | 'Ignore', terms: policy.terms }]
      : [],
  );
  return [{ policy_reference: reference, kind: draft.kind, terms: draft.terms }, ...bearing];
}

export function compileTester(input: TesterPolicies): CompiledLexicon {
  return compileLexicon(testerPolicies(input));
}

/** How a piece of the sample text shows: a match that raises, a match an ignored span suppressed, ignored, or plain. */
export type PieceKind = 'hit' | 'suppressed' | 'ignored' | 'plain';

export interface TesterPiece {
  text: string;
  kind: PieceKind;
}

const RANK: Record<PieceKind, number> = { plain: 0, ignored: 1, suppressed: 2, hit: 3 };

/**
 * The text cut into pieces at every match's edges, each piece marked by the strongest thing covering it (a raising
 * match, then a suppressed one, then an ignored span). Joined, the pieces give back the text exactly. Offsets are
 * clamped to the text; empty spans are dropped.
 */
export function testerPieces(text: string, marks: Readonly<Record<Exclude<PieceKind, 'plain'>, readonly LexiconHit[]>>): TesterPiece[] {
  const spans: { start: number; end: number; kind: PieceKind }[] = [];
  for (const kind of ['hit', 'suppressed', 'ignored'] as const) {
    for (const hit of marks[kind]) {
      for (const match of hit.matches) {
        const start = Math.max(0, Math.min(match.start, text.length));
        const end = Math.max(0, Math.min(match.end, text.length));
        if (start < end) spans.push({ start, end, kind });
      }
    }
  }
  const edges = [...new Set([0, text.length, ...spans.flatMap((span) => [span.start, span.end])])].sort((a, b) => a - b);
  const pieces: TesterPiece[] = [];
  for (let i = 0; i + 1 < edges.length; i += 1) {
    const start = edges[i] as number;
    const end = edges[i + 1] as number;
    let kind: PieceKind = 'plain';
    for (const span of spans) if (span.start <= start && span.end >= end && RANK[span.kind] > RANK[kind]) kind = span.kind;
    const last = pieces[pieces.length - 1];
    if (last !== undefined && last.kind === kind) last.text += text.slice(start, end);
    else pieces.push({ text: text.slice(start, end), kind });
  }
  return pieces;
}

/** One line of the tester's summary: a term and how often it matched, raised or was suppressed. */
export interface TermTally {
  policy_reference: string;
  term: string;
  raised: number;
  suppressed: number;
}

export interface TesterResult {
  reading: LexiconReading;
  pieces: TesterPiece[];
  /** The draft's terms that matched (raised or suppressed), in the draft's order. */
  tallies: TermTally[];
  /** Ignore terms (of any policy) that marked spans. */
  ignoredBy: { policy_reference: string; term: string; count: number }[];
}

/**
 * Reads the sample text. For a Lexicon draft, its raising matches are hits and the other policies' ignored spans
 * show; for an Ignore draft, its spans are the ignored ones and the other policies' matches inside them show as
 * suppressed (their matches elsewhere show as hits, so the reader sees what the ignore leaves standing).
 */
export function testText(compiled: CompiledLexicon, text: string): TesterResult {
  const reading = readLexicon(compiled, text);
  const pieces = testerPieces(text, { hit: reading.hits, suppressed: reading.suppressed, ignored: reading.ignored });
  const draftReference = compiled.terms[0]?.policy_reference;
  const tallies = new Map<string, TermTally>();
  const tally = (hit: LexiconHit, field: 'raised' | 'suppressed') => {
    const key = `${hit.policy_reference}\u0000${hit.term}`;
    const entry = tallies.get(key) ?? { policy_reference: hit.policy_reference, term: hit.term, raised: 0, suppressed: 0 };
    entry[field] += hit.matches.length;
    tallies.set(key, entry);
  };
  for (const hit of reading.hits) tally(hit, 'raised');
  for (const hit of reading.suppressed) tally(hit, 'suppressed');
  const ordered = [...tallies.values()].sort((a, b) => Number(b.policy_reference === draftReference) - Number(a.policy_reference === draftReference));
  return {
    reading,
    pieces,
    tallies: ordered,
    ignoredBy: reading.ignored.map((hit) => ({ policy_reference: hit.policy_reference, term: hit.term, count: hit.matches.length })),
  };
}
