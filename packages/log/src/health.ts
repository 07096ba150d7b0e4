/** k8s healthz.LogHealthz fails with this text when logging has stopped making progress. */
const BLOCKED = 'logging blocked';

/**
 * The `log` health check: flushes the logger and rejects with "logging blocked" if the flush does
 * not finish within `timeoutMs` (a stalled stderr pipe) or fails. Any Logger works, so does discardLogger.
 */
export async function checkLogging(logger: { flush(): Promise<void> }, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(BLOCKED)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([
      logger.flush().catch((err: unknown) => {
        throw new Error(`${BLOCKED}: ${err instanceof Error ? err.message : String(err)}`);
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
