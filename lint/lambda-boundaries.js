// @ts-check
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Import boundaries of lambdas/ (docs/architecture.md): core knows no area, and an area reaches another only through
 * that area's public module (`lambdas/<area>/public.ts`, re-exporting what other areas use). Specifiers are resolved
 * (relative and `#core/…`) before they are judged, so `../../audit/x.ts` and `#core/x.ts` are seen for what they are.
 * Modules directly in lambdas/ (`api-recorders.ts`) are the composition root's: they wire areas into core, so they
 * may import an area's implementation, and core's tests may import them (or an area's public module) to run core with
 * the real trail.
 */
const LAMBDAS = resolve(dirname(fileURLToPath(import.meta.url)), '../lambdas');

/** `lambdas/`-relative path of an import, or undefined when it points outside lambdas/ (a package, shared/). */
function targetOf(file, specifier) {
  let target;
  if (specifier.startsWith('.')) target = resolve(dirname(file), specifier);
  else if (specifier.startsWith('#core/')) target = resolve(LAMBDAS, 'core', specifier.slice('#core/'.length));
  else return undefined;
  const path = relative(LAMBDAS, target);
  return path.startsWith('..') ? undefined : path.split('\\').join('/');
}

const areaOf = (path) => (path.includes('/') ? path.split('/')[0] : undefined);
const isTest = (path) => /\.(test|testkit)\.tsx?$/.test(path) || path.startsWith('core/testing/');

/** Why `from` may not import `to` (both lambdas/-relative), or undefined when it may. */
export function boundaryProblem(from, to, areas = true) {
  const fromArea = areaOf(from);
  const toArea = areaOf(to);
  if (fromArea === undefined || toArea === undefined || fromArea === toArea) {
    // The composition root (lambdas/*.ts) may be imported by core's tests only, never by core's code.
    if (fromArea === 'core' && toArea === undefined && !isTest(from)) return `core must not import the composition root (lambdas/${to}).`;
    return undefined;
  }
  // Core's tests may run core with an area's real pieces, through its public module like any other area.
  if (fromArea === 'core' && !(isTest(from) && to === `${toArea}/public.ts`)) return `core knows no area: lambdas/core must not import lambdas/${toArea} (declare a port in lambdas/core/ports and wire it in lambdas/api-recorders.ts or the handler).`;
  if (toArea === 'core' || !areas) return undefined;
  if (to !== `${toArea}/public.ts`) return `An area reaches another only through its public module: import lambdas/${toArea}/public.ts, not lambdas/${to}.`;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    // `{ areas: false }` checks core only (while areas still import each other's internals).
    schema: [{ type: 'object', properties: { areas: { type: 'boolean' } }, additionalProperties: false }],
    docs: { description: 'core knows no area; areas meet only through public modules' },
  },
  create(context) {
    const areas = context.options[0]?.areas ?? true;
    const from = relative(LAMBDAS, context.filename).split('\\').join('/');
    if (from.startsWith('..')) return {};
    const check = (node) => {
      const source = node.source;
      if (source === null || source === undefined || typeof source.value !== 'string') return;
      const to = targetOf(context.filename, source.value);
      if (to === undefined) return;
      const problem = boundaryProblem(from, to, areas);
      if (problem !== undefined) context.report({ node: source, message: problem });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'lambda-boundaries': rule } };
