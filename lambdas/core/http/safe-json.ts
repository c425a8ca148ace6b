/** Deeper than any contract goes; deeper input is refused before zod (or a later recursive walk) sees it. */
export const MAX_JSON_DEPTH = 64;

export type SafeJsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * JSON.parse plus two defences: nesting deeper than MAX_JSON_DEPTH is refused, and `__proto__` keys are dropped.
 * JSON.parse itself makes `__proto__` an own property (harmless), but a later `Object.assign` or merge would turn
 * it into a prototype change; dropping it here means no later code has to remember.
 * The walk is iterative so hostile nesting cannot overflow the stack.
 */
export function parseJsonSafely(text: string): SafeJsonResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'Invalid JSON' };
  }
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_JSON_DEPTH) return { ok: false, problem: `Nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(node)) {
      for (const child of node) stack.push({ node: child, depth: depth + 1 });
      continue;
    }
    if (Object.hasOwn(node, '__proto__')) delete (node as Record<string, unknown>)['__proto__'];
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return { ok: true, value };
}
