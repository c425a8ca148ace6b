// @ts-check
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Import layers of the portal (web/README.md): shared → lib and components → features → routes. A lower layer never
 * imports a higher one, and no feature imports another: what two features share moves down to lib/ or components/.
 * `app/` is platform (theme, providers): features and routes may use it, lib and components may not (they sit below
 * it). `testing/` is for tests only. `config.ts` (the runtime config) is below everything. Specifiers are resolved
 * before they are judged, so `../../devices/x.ts` is seen as features/devices whatever the depth it is written from.
 */
const WEB_SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../web/src');

/** `web/src`-relative path of a relative import, or undefined for a package or `#shared/…` (the lowest layer). */
function targetOf(file, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(WEB_SRC, resolve(dirname(file), specifier));
  return path.startsWith('..') ? undefined : path.split('\\').join('/');
}

/** The layer of a web/src-relative path: lib, components, feature, routes, app, testing, config or root. */
function layerOf(path) {
  const [top, next] = path.split('/');
  if (path === 'config.ts') return { layer: 'config' };
  if (next === undefined) return { layer: 'root' };
  if (top === 'features') return { layer: 'feature', feature: next };
  if (['lib', 'components', 'routes', 'app', 'testing'].includes(top)) return { layer: top };
  return { layer: 'root' };
}

const isTest = (path) => /\.test\.tsx?$/.test(path);

/** What each layer may import, besides itself, config.ts and shared/. */
const ALLOWED = {
  lib: ['lib', 'components'],
  components: ['lib', 'components'],
  feature: ['lib', 'components', 'app'],
  app: ['lib', 'components'],
  routes: ['lib', 'components', 'app', 'feature', 'routes'],
  testing: ['lib', 'components', 'app'],
};

/** Why `from` may not import `to` (both web/src-relative), or undefined when it may. */
export function layerProblem(from, to) {
  const source = layerOf(from);
  const target = layerOf(to);
  if (target.layer === 'config' || source.layer === 'root') return undefined;
  if (target.layer === 'testing') return isTest(from) || source.layer === 'testing' ? undefined : 'web/src/testing is for tests only.';
  if (source.layer === 'feature' && target.layer === 'feature') {
    return source.feature === target.feature
      ? undefined
      : `No feature imports another (features/${source.feature} → features/${target.feature}): move what both use to lib/ or components/, or bind the endpoint in this feature's api/.`;
  }
  const allowed = ALLOWED[source.layer] ?? [];
  if (target.layer === source.layer || allowed.includes(target.layer)) return undefined;
  return `web/src/${source.layer === 'feature' ? 'features' : source.layer} must not import web/src/${to} (layers: shared → lib, components → features → routes; app is platform above lib and components).`;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: { type: 'problem', schema: [], docs: { description: 'portal layers: lib and components → features → routes; no feature imports another' } },
  create(context) {
    const from = relative(WEB_SRC, context.filename).split('\\').join('/');
    if (from.startsWith('..')) return {};
    const check = (node) => {
      const source = node.source;
      if (source === null || source === undefined || typeof source.value !== 'string') return;
      const to = targetOf(context.filename, source.value);
      if (to === undefined) return;
      const problem = layerProblem(from, to);
      if (problem !== undefined) context.report({ node: source, message: problem });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'web-layers': rule } };
