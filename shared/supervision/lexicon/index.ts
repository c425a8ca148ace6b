/**
 * The lexicon engine (pure, no Node APIs: the backend raises items with it and the portal's term tester uses it too).
 * Term syntax: ./term-syntax.ts; how text is read as words: ./words.ts; display segments for matched spans:
 * ./highlight.ts. The sampling hash lives apart in ../sampling.ts because it needs node:crypto.
 */
export { compileLexicon, type CompiledLexicon, type LexiconPolicy } from './compile.ts';
export { evaluateLexicon, readLexicon, type LexiconHit, type LexiconReading } from './evaluate.ts';
export { termProblem } from './term-syntax.ts';
