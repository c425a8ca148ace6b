/**
 * Runs `work` on every entry, at most `concurrency` at once; the answers in the entries' order. When one fails, no
 * further entry is started and the failure is thrown once the ones under way have settled: nothing of a failed batch
 * goes on writing after it has failed.
 */
export async function inParallel<T, R>(entries: readonly T[], concurrency: number, work: (entry: T, index: number) => Promise<R>): Promise<R[]> {
  const answers = new Array<R>(entries.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    for (let index = next++; index < entries.length && !failed; index = next++) {
      try {
        answers[index] = await work(entries[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
  const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return answers;
}
