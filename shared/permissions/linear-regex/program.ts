import { parsePattern, PatternError, type CodePointRanges, type RegexNode } from './parse.ts';

/**
 * A parsed pattern compiled to an NFA program and run as a Thompson simulation: every live state advances one
 * input character at a time, each state at most once per position, so a run costs O(program size × input length)
 * whatever the pattern (no backtracking, and no recursion: threads are followed with an explicit stack).
 * Matching is anchored at both ends: the value matches only when the whole of it is consumed.
 */

type Instruction =
  | { op: 'set'; ranges: CodePointRanges; next: number }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'begin' | 'end'; next: number }
  | { op: 'match' };

/** Largest program accepted: a 255-character pattern with counted repeats could otherwise expand very far. */
export const MAX_PROGRAM_SIZE = 20_000;

export interface RegexProgram {
  readonly instructions: readonly Instruction[];
}

class Compiler {
  readonly instructions: Instruction[] = [];

  private emit(instruction: Instruction): number {
    if (this.instructions.length >= MAX_PROGRAM_SIZE) {
      throw new PatternError(`is too large once its counted repeats are expanded (more than ${MAX_PROGRAM_SIZE} steps)`);
    }
    this.instructions.push(instruction);
    return this.instructions.length - 1;
  }

  private get here(): number {
    return this.instructions.length;
  }

  compile(node: RegexNode): void {
    switch (node.kind) {
      case 'empty':
        return;
      case 'set':
        this.emit({ op: 'set', ranges: node.ranges, next: this.here + 1 });
        return;
      case 'begin':
      case 'end':
        this.emit({ op: node.kind, next: this.here + 1 });
        return;
      case 'concat':
        for (const item of node.items) this.compile(item);
        return;
      case 'alternate':
        this.alternate(node.options);
        return;
      case 'repeat':
        this.repeat(node.item, node.min, node.max);
        return;
    }
  }

  /** split L1, next; L1: option; jump end; next: … for each option but the last. */
  private alternate(options: readonly RegexNode[]): void {
    const jumps: Array<{ op: 'jump'; to: number }> = [];
    options.forEach((option, index) => {
      if (index === options.length - 1) {
        this.compile(option);
        return;
      }
      const split = { op: 'split' as const, first: this.here + 1, second: 0 };
      this.emit(split);
      this.compile(option);
      const jump = { op: 'jump' as const, to: 0 };
      this.emit(jump);
      jumps.push(jump);
      split.second = this.here;
    });
    for (const jump of jumps) jump.to = this.here;
  }

  /** `min` copies, then `x*` when unbounded, else `max - min` nested optional copies: x{2,4} is xx(x(x)?)?. */
  private repeat(item: RegexNode, min: number, max: number): void {
    for (let copy = 0; copy < min; copy += 1) this.compile(item);
    if (max < 0) {
      const split = { op: 'split' as const, first: this.here + 1, second: 0 };
      const loop = this.emit(split);
      this.compile(item);
      this.emit({ op: 'jump', to: loop });
      split.second = this.here;
      return;
    }
    const splits: Array<{ op: 'split'; first: number; second: number }> = [];
    for (let copy = min; copy < max; copy += 1) {
      const split = { op: 'split' as const, first: this.here + 1, second: 0 };
      this.emit(split);
      splits.push(split);
      this.compile(item);
    }
    for (const split of splits) split.second = this.here;
  }
}

/** Compiles a pattern, or throws a PatternError naming what is wrong with it. */
export function compileRegex(pattern: string): RegexProgram {
  const compiler = new Compiler();
  compiler.compile(parsePattern(pattern));
  compiler.instructions.push({ op: 'match' });
  return { instructions: compiler.instructions };
}

function inRanges(ranges: CodePointRanges, code: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (code < (ranges[middle * 2] as number)) high = middle - 1;
    else if (code > (ranges[middle * 2 + 1] as number)) low = middle + 1;
    else return true;
  }
  return false;
}

export interface RunResult {
  readonly matched: boolean;
  /** Instructions visited: at most 2 × program size per input position, the linear-time guarantee made countable. */
  readonly steps: number;
}

/** Does the program match the whole of `value`? Also counts the work done. */
export function runProgram(program: RegexProgram, value: string): RunResult {
  const { instructions } = program;
  const size = instructions.length;
  const seenAt = new Int32Array(size).fill(-1);
  const stack: number[] = [];
  let current: number[] = [];
  let next: number[] = [];
  let steps = 0;
  let generation = 0;

  /** Follows jumps, splits and assertions from `start`, adding each character or match state once per position. */
  const addThread = (list: number[], start: number, position: number): void => {
    stack.push(start);
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seenAt[pc] === generation) continue;
      seenAt[pc] = generation;
      steps += 1;
      const instruction = instructions[pc] as Instruction;
      switch (instruction.op) {
        case 'jump':
          stack.push(instruction.to);
          break;
        case 'split':
          stack.push(instruction.second, instruction.first);
          break;
        case 'begin':
          if (position === 0) stack.push(instruction.next);
          break;
        case 'end':
          if (position === value.length) stack.push(instruction.next);
          break;
        default:
          list.push(pc);
      }
    }
  };

  addThread(current, 0, 0);
  let position = 0;
  while (position < value.length && current.length > 0) {
    const code = value.codePointAt(position) as number;
    const after = position + (code > 0xffff ? 2 : 1);
    generation += 1;
    next.length = 0;
    for (const pc of current) {
      steps += 1;
      const instruction = instructions[pc] as Instruction;
      if (instruction.op === 'set' && inRanges(instruction.ranges, code)) addThread(next, instruction.next, after);
    }
    [current, next] = [next, current];
    position = after;
  }
  const matched = position === value.length && current.some((pc) => instructions[pc]?.op === 'match');
  return { matched, steps };
}
