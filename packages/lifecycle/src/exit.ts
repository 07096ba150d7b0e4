/** How long a daemon whose run has returned may take to let go of its last handles. */
export const EXIT_GRACE_MS = 1_000;

/**
 * Ends a daemon's process once its run has returned `code`. Node exits by itself when nothing is
 * left pending; a handle something forgot to close (a timer, a socket) would keep it running after
 * it logged a clean shutdown, as a Go daemon never does once main returns. So after `graceMs` the
 * process names what is still open, on stderr, and exits anyway. A daemon that failed (a port in
 * use, say) exits at once: what its start-up left open is moot, and waiting would only delay the
 * restart.
 */
export function exitWhenDone(
  code: number,
  graceMs = EXIT_GRACE_MS,
  stderr: NodeJS.WritableStream = process.stderr,
): void {
  if (code !== 0) process.exit(code);
  process.exitCode = code;
  const timer = setTimeout(() => {
    // stdio is listed but never what keeps a process alive.
    const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap');
    stderr.write(`Exiting ${graceMs} ms after shutdown with resources still open: ${open.join(', ')}\n`);
    process.exit(code);
  }, graceMs);
  // Unref'd: it only fires if something else keeps the process alive.
  timer.unref();
}
