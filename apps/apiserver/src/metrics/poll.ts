import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `once` now and then every `periodMs` until `signal` aborts; a period of 0 (or less) runs
 * nothing, as kube's metric poll flags say. `once` handles its own failures.
 */
export async function pollEvery(
  periodMs: number,
  signal: AbortSignal,
  once: () => Promise<void>,
): Promise<void> {
  if (periodMs <= 0) return;
  while (!signal.aborted) {
    await once();
    await sleep(periodMs, undefined, { signal }).catch(() => undefined);
  }
}
