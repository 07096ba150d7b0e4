import { compileCacheDir, runBundle } from './compile-cache.js';

/**
 * Set by startControlPlane for a daemon it spawns before its arguments are known (the scheduler,
 * whose connection-config needs the API server's CA): the daemon loads and compiles its bundle,
 * then waits for its arguments on standard input, one line holding a JSON array of strings.
 * Module loading is most of a daemon's start-up, so it overlaps with the API server's.
 */
export const DEFERRED_ARGS_ENV = 'KEEL_DEFERRED_ARGS';

/** What a daemon bundle exports (scripts/bundle.mjs): its main, exiting when it is done. */
interface DaemonBundle {
  start(argv: readonly string[]): void;
  /** Start-up work that needs no arguments: run while a deferred daemon waits for them. */
  prepare?(): Promise<void>;
}

/** Reads the first line of `input` as a JSON array of strings. */
export function readArgs(input: NodeJS.ReadableStream): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err: Error | undefined, args?: string[]) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      if (err) reject(err);
      else resolve(args ?? []);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const eol = text.indexOf('\n');
      if (eol < 0) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text.slice(0, eol));
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed) || parsed.some((a) => typeof a !== 'string'))
        done(new Error(`${DEFERRED_ARGS_ENV}: standard input's first line is not a JSON array of strings`));
      else done(undefined, parsed as string[]);
    };
    const onEnd = () => done(new Error(`${DEFERRED_ARGS_ENV}: standard input ended before the arguments`));
    const onError = (err: Error) => done(err);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}

/**
 * A bundled daemon's launcher (dist/daemons/<name>.mjs): runs the bundle through the code cache,
 * then its main with the command line, or, with KEEL_DEFERRED_ARGS=1, with the arguments read
 * from standard input (added to process.argv too, so the daemon sees what `node <entry> <args>`
 * would have given it).
 */
export function launch(bundle: string): void {
  const deferred = process.env[DEFERRED_ARGS_ENV] === '1';
  // The daemon's own children (none today) start as usual.
  delete process.env[DEFERRED_ARGS_ENV];
  const run = runBundle(bundle, { cacheDir: compileCacheDir(), deferCacheTimer: deferred });
  const daemon = run.exports as Partial<DaemonBundle>;
  if (typeof daemon.start !== 'function') throw new Error(`${bundle} exports no start()`);
  const start = daemon.start.bind(daemon);
  if (!deferred) {
    start(process.argv.slice(2));
    return;
  }
  // Only warms up what start() would do anyway: should it fail, start() meets the same failure.
  daemon.prepare?.().catch(() => undefined);
  readArgs(process.stdin).then(
    (args) => {
      // Standard input has done its job; the daemon runs as one started with it ignored.
      process.stdin.destroy();
      process.argv.push(...args);
      run.startCacheTimer();
      start(args);
    },
    (err: unknown) => {
      process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
