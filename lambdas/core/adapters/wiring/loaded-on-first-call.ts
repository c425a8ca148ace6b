/** A port whose every method answers with a promise (the blob store, the key service, the scanner, the scheduler). */
type AsyncPort<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

/**
 * A port whose adapter module is loaded, and its SDK client built, on the first call of any method; every call waits
 * for that load and then runs on the adapter. `load` does its work with `import()`: the Lambda bundles are split
 * (lib/constructs/lambda-bundling.ts), so the adapter and the SDK client it imports are chunks beside the function's
 * entry, read, compiled and run on that first call, not at a cold start. The S3 and KMS clients were most of what the
 * functions using them read at a cold start beyond the others (docs/decisions.md, "Lambda bundles"), and most of their
 * requests never touch them.
 *
 * `methods` names every method of the port (the type requires each), so the stand-in answers exactly the port's
 * calls. A load that fails is not kept: the next call loads again.
 */
export function loadedOnFirstCall<T extends AsyncPort<T>>(methods: { readonly [K in keyof T]-?: true }, load: () => Promise<T>): T {
  let loading: Promise<T> | undefined;
  const loaded = (): Promise<T> => {
    if (loading === undefined) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
  const call = (name: string) =>
    async (...args: unknown[]) => {
      const adapter = (await loaded()) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return adapter[name]!(...args);
    };
  return Object.fromEntries(Object.keys(methods).map((name) => [name, call(name)])) as unknown as T;
}
