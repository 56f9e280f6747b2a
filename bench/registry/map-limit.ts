/**
 * `work` over every item with at most `limit` in flight; results in input order. After the first
 * failure, or once `signal` is aborted (Ctrl-C), no new item starts: an interrupted seeding stops
 * within one item per lane instead of running on while its temp dir is being removed.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    for (let i = next++; i < items.length && !failed; i = next++) {
      signal?.throwIfAborted();
      try {
        results[i] = await work(items[i] as T, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
