import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';

/**
 * Runs a daemon's CommonJS bundle through a V8 code cache, so that a second start skips most of
 * compiling its ~9 MB (the largest single cost of start-up).
 *
 * Why written here: Node 20 has no compile cache of its own for modules (module.enableCompileCache
 * is 22.1+), and v8-compile-cache only hooks CommonJS require() and produces its cache when the
 * file is compiled, before any function runs: V8 compiles functions lazily, so such a cache holds
 * little beyond the top level. This one compiles with vm.Script and takes the cache with
 * createCachedData() once the daemon has run for a while, which includes every function start-up
 * compiled.
 *
 * The cache is keyed by the bundle's SHA-256 and V8's version (a stale one is never found), carries
 * a SHA-256 of its own bytes (a corrupt one is never handed to V8), and V8 checks its flags and the
 * source length again; a rejected cache is replaced. `NODE_DEBUG=keel-compile-cache` says which.
 */

const debug = debuglog('keel-compile-cache');

/** `KEEL_COMPILE_CACHE`: a directory, or `off`; default a per-user directory under the temp dir. */
export const COMPILE_CACHE_ENV = 'KEEL_COMPILE_CACHE';
const DISABLED = new Set(['off', '0', 'false']);
const DIGEST_BYTES = 32;

export interface RunBundleOptions {
  /** Where the cache lives; undefined runs the bundle without one. */
  readonly cacheDir?: string | undefined;
  /**
   * How long the process runs before its cache is taken (unref'd: a process that exits sooner,
   * such as `--version`, writes none, so its thin cache never replaces a daemon's).
   */
  readonly writeAfterMs?: number;
  /**
   * Start that timer only when the caller calls `startCacheTimer()` (a daemon that waits for its
   * arguments first, `launch.ts`), so the wait does not count as running.
   */
  readonly deferCacheTimer?: boolean;
}

/** What running a bundle gives back. */
export interface BundleRun {
  /** The bundle's `module.exports`. */
  readonly exports: unknown;
  /** Starts the cache timer when `deferCacheTimer` held it back; otherwise does nothing. */
  startCacheTimer(): void;
}

/** The cache directory `KEEL_COMPILE_CACHE` names (or the default), undefined when it is off. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[COMPILE_CACHE_ENV]?.trim();
  if (value !== undefined && DISABLED.has(value.toLowerCase())) return undefined;
  if (value) return value;
  return join(tmpdir(), `keel-compile-cache-${process.getuid?.() ?? 'user'}`);
}

/** Runs `bundle` (CommonJS) in this process, as `node bundle` would, with the code cache. */
export function runBundle(bundle: string, opts: RunBundleOptions = {}): BundleRun {
  const bytes = readFileSync(bundle);
  // The same string either way for ASCII, which the build makes the bundles (scripts/bundle.mjs);
  // latin1 is a copy, while UTF-8 decoding of ~9 MB costs tens of milliseconds at every start.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const dir = opts.cacheDir !== undefined ? usableDir(opts.cacheDir) : undefined;
  const cacheFile = dir !== undefined ? join(dir, cacheName(bundle, bytes)) : undefined;
  const cachedData = cacheFile !== undefined ? readCache(cacheFile) : undefined;
  // Node's CommonJS wrapper, on the first line so that stack traces keep the bundle's line numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  if (cachedData) debug(script.cachedDataRejected ? 'rejected by V8: %s' : 'accepted: %s', cacheFile);
  let armed = false;
  const startCacheTimer = () => {
    if (armed) return;
    armed = true;
    if (dir !== undefined && cacheFile !== undefined && (!cachedData || script.cachedDataRejected)) {
      const prefix = `${basename(bundle)}-`;
      const timer = setTimeout(() => writeCache(dir, cacheFile, prefix, script), opts.writeAfterMs ?? 2_000);
      timer.unref();
    }
  };
  if (!opts.deferCacheTimer) startCacheTimer();
  const module: { exports: unknown; filename: string; id: string; loaded: boolean } = {
    exports: {},
    filename: bundle,
    id: '.',
    loaded: false,
  };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, startCacheTimer };
}

/** Names the bundle's exact bytes and the V8 that compiled them: a stale cache is never found. */
function cacheName(bundle: string, bytes: Buffer): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return `${basename(bundle)}-${hash}-${process.versions.v8}-${process.arch}.cache`;
}

/**
 * The directory, created private; undefined when it cannot be, or when someone else could write
 * to it (a cache is code this process runs).
 */
function usableDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
      debug('not used: %s is not a directory only its owner can write', dir);
      return undefined;
    }
    return dir;
  } catch (err) {
    debug('not used: %s: %s', dir, (err as Error).message);
    return undefined;
  }
}

function readCache(file: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    debug('none yet: %s', file);
    return undefined;
  }
  const body = data.subarray(DIGEST_BYTES);
  const digest = createHash('sha256').update(body).digest();
  if (data.length <= DIGEST_BYTES || !digest.equals(data.subarray(0, DIGEST_BYTES))) {
    debug('corrupt, ignored: %s', file);
    return undefined;
  }
  return body;
}

/** Writes the cache (atomically) and removes the bundle's older caches. Never fails the daemon. */
function writeCache(dir: string, file: string, prefix: string, script: Script): void {
  try {
    const data = script.createCachedData();
    const digest = createHash('sha256').update(data).digest();
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, Buffer.concat([digest, data]), { mode: 0o600 });
    renameSync(tmp, file);
    debug('written (%d bytes): %s', data.length, file);
    for (const other of readdirSync(dir)) {
      if (other.startsWith(prefix) && other !== basename(file) && !other.includes('.tmp-')) {
        unlinkSync(join(dir, other));
      }
    }
  } catch (err) {
    debug('not written: %s: %s', file, (err as Error).message);
  }
}
