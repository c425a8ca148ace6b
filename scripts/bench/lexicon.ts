import { compileLexicon, evaluateLexicon, type CompiledLexicon, type LexiconPolicy } from '#shared/supervision/lexicon/index.ts';
import { formatTable, median } from './measure.ts';

/**
 * The lexicon part of `npm run bench` (`npm run bench -- lexicon` alone): the same 100,000 synthetic messages
 * (deterministic, 20 to 60 words each, words drawn by Zipf's law as in real text, punctuation and capitals
 * here and there, a known phrase planted in about 2 % of them) evaluated with 1,000 terms and with 10 terms, interleaved
 * rounds, median times compared (aim <= 1.5: one automaton reads each word once whatever the number of terms); then one
 * term through the engine against a plain `indexOf` scan of the same texts (raw, and on a lower-cased copy, as a
 * case-insensitive scan needs). In process, no stack; about 20 s of CPU (times are CPU time, as the machine may be
 * shared; wall time is shown beside).
 */
const MESSAGES = Number(process.env.BENCH_LEXICON_MESSAGES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_LEXICON_ROUNDS ?? 3);
const VOCABULARY_SIZE = 20_000;
/** Terms come from the rarer words (about 9 % of running text), as real lexicon terms are rarer than "the". */
const TERM_WORDS_FROM = 8_000;

/** mulberry32: a small seeded generator, so every run reads the same texts and terms. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Letters weighted roughly as in English text, so words share beginnings about as often as real ones do. */
const LETTERS = 'eeeeeeeeeeeettttttttttaaaaaaaaooooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummmwwffggyyppbbvkjxqz';

function vocabulary(random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < VOCABULARY_SIZE) {
    const length = 2 + Math.floor(random() * 5) + Math.floor(random() * 5);
    words.add(Array.from({ length }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join(''));
  }
  return [...words];
}

const PLANTED = 'please keep this off the record';
const SEPARATORS = [' ', ' ', ' ', ' ', ' ', ' ', ', ', '. ', '\n', ' - ', '! ', '? '];

function messages(words: readonly string[], random: () => number): string[] {
  const texts: string[] = [];
  for (let m = 0; m < MESSAGES; m += 1) {
    const count = 20 + Math.floor(random() * 41);
    let text = '';
    for (let w = 0; w < count; w += 1) {
      // Rank N^u is log-uniform: a word's chance falls as 1/rank, as word frequencies in real text do (Zipf).
      let word = words[Math.floor(words.length ** random()) - 1] as string;
      if (random() < 0.05) word = word.charAt(0).toUpperCase() + word.slice(1);
      text += word + (SEPARATORS[Math.floor(random() * SEPARATORS.length)] as string);
    }
    if (random() < 0.02) text += PLANTED;
    texts.push(text);
  }
  return texts;
}

/** A realistic mix: single words, phrases, prefixes, NEAR, NOT, a few literal symbols; the planted phrase first. */
function terms(words: readonly string[], count: number, random: () => number): string[] {
  const pick = () => words[TERM_WORDS_FROM + Math.floor(random() * (words.length - TERM_WORDS_FROM))] as string;
  const list = new Set<string>(['off the record']);
  while (list.size < count) {
    const roll = random();
    if (roll < 0.5) list.add(pick());
    else if (roll < 0.7) list.add(`${pick()} ${pick()}${random() < 0.5 ? ` ${pick()}` : ''}`);
    else if (roll < 0.8) {
      // A stem, as "guarant*": a word of seven letters or more, less its last two.
      let word = pick();
      while (word.length < 7) word = pick();
      list.add(`${word.slice(0, word.length - 2)}*`);
    }
    else if (roll < 0.9) list.add(`${pick()} NEAR/${1 + Math.floor(random() * 5)} ${pick()}`);
    else if (roll < 0.97) list.add(`${pick()} NOT ${pick()}`);
    else list.add(`${pick()}-${pick()}`);
  }
  return [...list];
}

function policies(lexiconTerms: string[]): LexiconPolicy[] {
  return [
    { policy_reference: 'bench-lexicon', kind: 'Lexicon', terms: lexiconTerms },
    { policy_reference: 'bench-ignore', kind: 'Ignore', terms: ['this is not a guarantee of future results'] },
  ];
}

/** CPU milliseconds of this process: on a shared machine, waiting for a core is not the engine's time. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Milliseconds (CPU and wall) to evaluate every text, and how many texts had a hit and how many hits in all. */
function evaluateAll(compiled: CompiledLexicon, texts: readonly string[]): { ms: number; wallMs: number; textsHit: number; hits: number } {
  let textsHit = 0;
  let hits = 0;
  const [cpuStarted, started] = [cpuMs(), performance.now()];
  for (const text of texts) {
    const found = evaluateLexicon(compiled, text);
    if (found.length > 0) textsHit += 1;
    hits += found.length;
  }
  return { ms: cpuMs() - cpuStarted, wallMs: performance.now() - started, textsHit, hits };
}

function timeIndexOf(texts: readonly string[], term: string, lowerCase: boolean): { ms: number; found: number } {
  let found = 0;
  const started = cpuMs();
  for (const text of texts) if ((lowerCase ? text.toLowerCase() : text).indexOf(term) >= 0) found += 1;
  return { ms: cpuMs() - started, found };
}

const count = (value: number) => value.toLocaleString('en-GB');
const perSecond = (messages: number, ms: number) => `${count(Math.round(messages / (ms / 1000)))} msg/s`;
const mibPerSecond = (bytes: number, ms: number) => `${(bytes / 1_048_576 / (ms / 1000)).toFixed(0)} MiB/s`;

export function benchLexicon(): string {
  const started = performance.now();
  const random = seeded(20_261_129);
  const words = vocabulary(random);
  const texts = messages(words, random);
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  const large = terms(words, 1_000, random);
  const small = large.slice(0, 10);
  const compileStarted = performance.now();
  const compiledLarge = compileLexicon(policies(large));
  const compileMs = performance.now() - compileStarted;
  const compiledSmall = compileLexicon(policies(small));
  const one = 'off the record';
  const compiledOne = compileLexicon([{ policy_reference: 'bench-one', kind: 'Lexicon', terms: [one] }]);

  // A warm-up on a tenth of the texts (JIT), then interleaved rounds alternating which goes first.
  const warmUp = texts.slice(0, Math.ceil(texts.length / 10));
  for (const compiled of [compiledSmall, compiledLarge, compiledOne]) evaluateAll(compiled, warmUp);
  const times = { small: [] as number[], large: [] as number[], one: [] as number[], indexOf: [] as number[], lowerIndexOf: [] as number[] };
  const wall = { small: [] as number[], large: [] as number[] };
  let last = { small: { textsHit: 0, hits: 0 }, large: { textsHit: 0, hits: 0 } };
  for (let round = 0; round < ROUNDS; round += 1) {
    const runs = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
    for (const size of runs) {
      const result = evaluateAll(size === 'small' ? compiledSmall : compiledLarge, texts);
      times[size].push(result.ms);
      wall[size].push(result.wallMs);
      last = { ...last, [size]: result };
    }
    times.one.push(evaluateAll(compiledOne, texts).ms);
    times.indexOf.push(timeIndexOf(texts, one, false).ms);
    times.lowerIndexOf.push(timeIndexOf(texts, one, true).ms);
  }
  const [smallMs, largeMs, oneMs, indexOfMs, lowerMs] = [median(times.small), median(times.large), median(times.one), median(times.indexOf), median(times.lowerIndexOf)];
  const bytes = characters * 2;
  const ratio = largeMs / smallMs;
  const scaling = formatTable(
    ['lexicon', 'median CPU', 'median wall', 'throughput (CPU)', 'texts with a hit', 'hits', 'ratio', 'aim <= 1.5'],
    [
      ['10 terms', `${smallMs.toFixed(0)} ms`, `${median(wall.small).toFixed(0)} ms`, perSecond(MESSAGES, smallMs), count(last.small.textsHit), count(last.small.hits), '1.00', ''],
      ['1,000 terms', `${largeMs.toFixed(0)} ms`, `${median(wall.large).toFixed(0)} ms`, perSecond(MESSAGES, largeMs), count(last.large.textsHit), count(last.large.hits), ratio.toFixed(2), ratio <= 1.5 ? 'ok' : 'OVER 1.5'],
    ],
  );
  const scan = formatTable(
    ['one term ("off the record")', 'median CPU', 'throughput', 'engine time / this time'],
    [
      ['lexicon engine', `${oneMs.toFixed(0)} ms`, mibPerSecond(bytes, oneMs), '1.0'],
      ['indexOf (case-sensitive)', `${indexOfMs.toFixed(0)} ms`, mibPerSecond(bytes, indexOfMs), (oneMs / indexOfMs).toFixed(1)],
      ['toLowerCase + indexOf', `${lowerMs.toFixed(0)} ms`, mibPerSecond(bytes, lowerMs), (oneMs / lowerMs).toFixed(1)],
    ],
  );
  const summary =
    `${count(MESSAGES)} messages, ${(characters / 1_048_576).toFixed(1)} M characters, ${ROUNDS} interleaved rounds (medians; ratios of CPU time); ` +
    `1,000 terms compiled in ${compileMs.toFixed(0)} ms (${compiledLarge.phrases.length} phrases); ${((performance.now() - started) / 1000).toFixed(0)} s in all`;
  return `${scaling}\n\n${scan}\n(${summary})`;
}
