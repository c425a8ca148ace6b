/**
 * A value built on its first use and kept: for the zod schemas of the stored entities, which every function bundles
 * (keys.ts composes every entity's key builders) but each reads only a few of. Built at load, they were module-init
 * work on every cold start and kept every contract module they extend in every bundle. Write the call as
 * `/* @__PURE__ *\/ onFirstUse(() => …)`: the annotation lets the bundler drop a schema no code of the function reads,
 * and with it the contract modules only that schema needed.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
