/**
 * The lexicon engine (pure, no Node APIs: the backend raises items with it and the portal's term tester and
 * highlighting use it too). Term syntax: ./term-syntax.ts; how text is read as words: ./words.ts. The sampling hash
 * lives apart in ../sampling.ts because it needs node:crypto.
 */
export { compileLexicon, type CompiledLexicon, type LexiconPolicy, type RefusedTerm } from './compile.ts';
export { evaluateLexicon, readLexicon, type EvaluateOptions, type LexiconHit, type LexiconReading, type TextMatch } from './evaluate.ts';
export { highlightSegments, type HighlightSegment } from './highlight.ts';
export { NEAR_DISTANCE_MAX, PHRASE_WORDS_MAX, TERM_LENGTH_MAX, parseTerm, termProblem, type ParsedTerm } from './term-syntax.ts';
