/** The source position of a logging call, as klog's `file:line`. */
export interface Caller {
  /** Base name of the source file (`server.ts`, or `server.js` for built code without source maps). */
  readonly file: string;
  readonly line: number;
}

/** Any function can mark where the logger internals end; its signature does not matter. */
export type EntryPoint = (...args: never[]) => unknown;

/** klog prints `???:1` when the runtime cannot say where a call came from. */
const UNKNOWN: Caller = { file: '???', line: 1 };

// A V8 frame ends in `path:line:column`, optionally inside parentheses; the path may be a file:// URL.
const FRAME_POSITION = /([^\s(]+):(\d+):\d+\)?$/;

/** The base name of a path or URL, without a query string (Vite adds `?v=...` to module URLs). */
function baseName(path: string): string {
  const noQuery = path.replace(/[?#].*$/, '');
  return noQuery.slice(Math.max(noQuery.lastIndexOf('/'), noQuery.lastIndexOf('\\')) + 1);
}

/**
 * Where the function that called `entry` was called from. `entry` is the public logging method, so
 * V8 drops it and everything above it (the logger internals) and only one frame is captured: the
 * cost is paid only for lines that are emitted, as klog's runtime.Caller is.
 */
export function callerOf(entry: EntryPoint): Caller {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 1;
    Error.captureStackTrace(holder, entry);
  } catch {
    return UNKNOWN;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return parseFrame(holder.stack);
}

/** Reads the first `at ...` frame of a V8 stack text. */
export function parseFrame(stack: string | undefined): Caller {
  const frame = stack?.split('\n').find((l) => l.trimStart().startsWith('at '));
  const m = frame === undefined ? null : FRAME_POSITION.exec(frame.trim());
  if (!m) return UNKNOWN;
  const file = baseName(m[1] ?? '');
  return file === '' ? UNKNOWN : { file, line: Number(m[2]) };
}
