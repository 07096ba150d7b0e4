/**
 * /debug/pprof/ for --profiling, with what Node's own inspector can take instead of Go's
 * profiles: a CPU profile (V8's .cpuprofile JSON, which Chrome DevTools and speedscope open) and
 * a heap snapshot (.heapsnapshot). Go's other profiles (goroutine, block, mutex, threadcreate)
 * have no Node counterpart and answer "Unknown profile", as Go does for a name it lacks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSnapshot } from 'node:v8';

export interface ProfilingSettings {
  /** --profiling: off means every /debug/pprof path is left to the 404 handler. */
  readonly enabled: boolean;
}

const PREFIX = '/debug/pprof';
const DEFAULT_SECONDS = 30;

const INDEX = `<html>
<head><title>/debug/pprof/</title></head>
<body>
/debug/pprof/<br>
<br>
Types of profiles available:
<ul>
<li><a href="heap">heap</a>: a V8 heap snapshot (.heapsnapshot) of the live objects</li>
<li><a href="profile">profile</a>: a V8 CPU profile (.cpuprofile); add ?seconds=N (default 30)</li>
</ul>
</body>
</html>
`;

let cpuProfileRunning = false;

function plain(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'X-Go-Pprof': '1',
  });
  res.end(`${text}\n`);
}

async function cpuProfile(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const raw = url.searchParams.get('seconds');
  const seconds = raw === null ? DEFAULT_SECONDS : Number(raw);
  if (!Number.isInteger(seconds) || seconds <= 0) {
    plain(res, 400, 'Bad Request: invalid value for "seconds"');
    return;
  }
  // One V8 profiler per process: a second request would stop the first one's profile.
  if (cpuProfileRunning) {
    plain(res, 500, 'Could not enable CPU profiling: cpu profiling already in use');
    return;
  }
  cpuProfileRunning = true;
  const session = new Session();
  session.connect();
  const gone = new AbortController();
  req.once('close', () => gone.abort());
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await sleep(seconds * 1000, undefined, { signal: gone.signal }).catch(() => undefined);
    const { profile } = await session.post('Profiler.stop');
    if (gone.signal.aborted) return;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Disposition': 'attachment; filename="profile.cpuprofile"',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(JSON.stringify(profile));
  } finally {
    session.disconnect();
    cpuProfileRunning = false;
  }
}

function heapSnapshot(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': 'attachment; filename="heap.heapsnapshot"',
    'X-Content-Type-Options': 'nosniff',
  });
  getHeapSnapshot().pipe(res);
}

/**
 * Answers a /debug/pprof request and returns true; false for any other path or when profiling
 * is off. The caller has already authenticated and authorized the request.
 */
export function serveProfiling(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  settings: ProfilingSettings,
): boolean {
  const path = url.pathname;
  if (!settings.enabled || (path !== PREFIX && !path.startsWith(`${PREFIX}/`))) return false;
  const name = path.slice(PREFIX.length + 1);
  if (name === '') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(INDEX);
  } else if (name === 'profile') {
    void cpuProfile(req, res, url).catch((err: unknown) => {
      if (!res.headersSent) plain(res, 500, `Could not enable CPU profiling: ${String(err)}`);
      else res.destroy();
    });
  } else if (name === 'heap') {
    heapSnapshot(res);
  } else {
    plain(res, 404, 'Unknown profile');
  }
  return true;
}
