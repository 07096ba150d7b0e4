/**
 * `pnpm soak [--duration 1h]`: the built keel-apiserver (and keel-scheduler) on a real Redis under
 * a steady, bounded mixed load on 127.0.0.1 for a fixed time, sampled every 10 s: the server's RSS
 * and heap, its event-loop lag (prom-client's monitorEventLoopDelay percentiles from /metrics,
 * reset at each scrape, so each sample covers the interval before it), request rate, errors and
 * open watches. Ends with a summary table; exits 1 when a request failed or RSS grew more than
 * --max-rss-growth percent after the warm-up. Flags: see USAGE in options.ts.
 */
import { readFileSync, writeFileSync, appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DaemonProcess,
  schedulerEntry,
  startRedisServer,
  TestApiServer,
  writeKubeconfig,
  type RedisServer,
} from '@keel/testing';
import { ProgressLine, mib } from '../support/progress.js';
import { Counters, SoakClient, prepare, runLoad, sleep } from './load.js';
import { parseSoakArgs, USAGE, type SoakOptions } from './options.js';
import { GcTrace } from './gc-trace.js';
import { CSV_HEADER, csvLine, fullGcLines, judge, summaryLines, type Sample } from './summary.js';

/** VmRSS of a process from /proc, bytes; NaN when it is gone. */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

/** A gauge's value from a Prometheus text (the first series of that name). */
function gauge(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([^ \\n]+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

/**
 * Event-loop lag in ms from prom-client's monitorEventLoopDelay figures, which time whole timer
 * periods: an idle loop reads its 10 ms resolution, so that is taken off.
 */
function lagMs(seconds: number): number {
  return Math.max(0, seconds * 1000 - LAG_RESOLUTION_MS);
}
const LAG_RESOLUTION_MS = 10;

/** Keeps only the tail of a daemon's captured output: an hour of logs would otherwise pile up here. */
function trimOutput(p: DaemonProcess): void {
  const keep = 64 * 1024;
  if (p.stdout.length > keep) p.stdout = p.stdout.slice(-keep);
  if (p.stderr.length > keep) p.stderr = p.stderr.slice(-keep);
}

async function soak(opts: SoakOptions): Promise<number> {
  const envRedis = process.env['REDIS_URL'];
  let redis: RedisServer | undefined;
  let api: TestApiServer | undefined;
  let sched: DaemonProcess | undefined;
  let client: SoakClient | undefined;
  const counters = new Counters();
  const progress = new ProgressLine();
  const stop = new AbortController();
  const onSignal = () => {
    progress.log('interrupted: stopping the load and printing what was measured');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (!envRedis) redis = await startRedisServer();
    const redisUrl = envRedis ?? redis!.url;
    // --trace-gc for the API server only (DaemonProcess reads this variable at each start).
    const nodeArgs = process.env['KEEL_DAEMON_NODE_ARGS'];
    const serverStarting = Date.now();
    process.env['KEEL_DAEMON_NODE_ARGS'] = `${nodeArgs ?? ''} --trace-gc`;
    try {
      api = await TestApiServer.start({ redisUrl, namespaceLifecycle: true });
    } finally {
      if (nodeArgs === undefined) delete process.env['KEEL_DAEMON_NODE_ARGS'];
      else process.env['KEEL_DAEMON_NODE_ARGS'] = nodeArgs;
    }
    await api.ready(30_000);
    const pid = api.process.child.pid;
    const serverStarted = serverStarting;
    client = new SoakClient(api.url, api.ca, counters);
    await prepare(client, 3);
    if (opts.scheduler) {
      const kubeconfig = join(mkdtempSync(join(tmpdir(), 'keel-soak-')), 'scheduler.conf');
      writeKubeconfig(kubeconfig, api.url, api.ca);
      sched = DaemonProcess.start(schedulerEntry, [`--connection-config=${kubeconfig}`, '--secure-port=0']);
    }
    console.log(
      `soak: keel-apiserver pid ${pid} on ${redisUrl}${sched ? `, keel-scheduler pid ${sched.child.pid}` : ''}; ` +
        `${opts.duration.toString()} at ~${opts.rate} req/s plus 6 watches, warm-up ${opts.warmup.toString()}, ` +
        `sample every ${opts.interval.toString()}`,
    );
    if (opts.csv) writeFileSync(opts.csv, CSV_HEADER + '\n');

    const samples: Sample[] = [];
    const gcTrace = new GcTrace();
    const totalS = opts.duration.seconds;
    const t0 = Date.now();
    // V8 stamps GC lines with ms since the process started; this maps them to the load's clock.
    const t0ServerMs = t0 - serverStarted;
    const elapsed = () => (Date.now() - t0) / 1000;
    // Starts the lag histogram's interval at the load's start.
    await client.text('/metrics');
    const load = runLoad(client, opts.rate, stop.signal);
    let lastReq = counters.requests;
    let lastT = 0;
    const sample = async (): Promise<void> => {
      const t = elapsed();
      let metrics = '';
      try {
        metrics = await client!.text('/metrics');
      } catch (err) {
        counters.error(`GET /metrics: ${(err as Error).message}`);
      }
      // The server's stdout carries only the GC trace: read, it is dropped.
      api!.process.stdout = gcTrace.consume(api!.process.stdout);
      const s: Sample = {
        t,
        rssBytes: rssOf(pid),
        heapUsedBytes: gauge(metrics, 'nodejs_heap_size_used_bytes'),
        lagP50Ms: lagMs(gauge(metrics, 'nodejs_eventloop_lag_p50_seconds')),
        lagP99Ms: lagMs(gauge(metrics, 'nodejs_eventloop_lag_p99_seconds')),
        lagMaxMs: lagMs(gauge(metrics, 'nodejs_eventloop_lag_max_seconds')),
        reqPerS: (counters.requests - lastReq) / Math.max(0.001, t - lastT),
        requests: counters.requests,
        errors: counters.errors,
        watches: counters.watchesOpen,
        watchEvents: counters.watchEvents,
        schedulerRssBytes: rssOf(sched?.child.pid),
        metricsBytes: metrics.length,
        heapAfterFullGcBytes: gcTrace.lastAfterBytes,
      };
      lastReq = counters.requests;
      lastT = t;
      samples.push(s);
      if (opts.csv) appendFileSync(opts.csv, csvLine(s) + '\n');
      trimOutput(api!.process);
      if (sched) trimOutput(sched);
      progress.update({
        elapsedS: t,
        totalS,
        reqPerS: s.reqPerS,
        rssBytes: s.rssBytes,
        heapBytes: s.heapUsedBytes,
        lagMs: s.lagP99Ms,
        watches: s.watches,
        errors: s.errors,
        note: t < opts.warmup.seconds ? '(warm-up)' : undefined,
      });
    };
    let shownErrors = 0;
    // Samples on a fixed grid; the last one is taken while the load still runs, then it stops.
    const count = Math.floor(totalS / opts.interval.seconds);
    for (let i = 1; i <= count && !stop.signal.aborted; i++) {
      await sleep(Math.max(0, t0 + i * opts.interval.milliseconds - Date.now()), stop.signal);
      if (stop.signal.aborted) break;
      if (api.process.child.exitCode !== null || api.process.child.signalCode !== null) {
        counters.error(`keel-apiserver exited:\n${api.process.stderr.slice(-2000)}`);
        break;
      }
      if (sched && (sched.child.exitCode !== null || sched.child.signalCode !== null)) {
        counters.error(`keel-scheduler exited:\n${sched.stderr.slice(-2000)}`);
        break;
      }
      await sample();
      // Errors are printed as they come (the first 20 in full), not only at the end.
      for (; shownErrors < counters.errorLog.length; shownErrors++)
        progress.log(`error: ${counters.errorLog[shownErrors]}`);
    }
    stop.abort();
    const ranS = elapsed();
    await load;
    progress.done();
    for (; shownErrors < counters.errorLog.length; shownErrors++)
      console.log(`error: ${counters.errorLog[shownErrors]}`);

    const verdict = judge(samples, opts.warmup.seconds, opts.maxRssGrowthPct, counters.errors);
    console.log('');
    for (const line of summaryLines(samples, verdict, { seconds: ranS, byKind: counters.byKind }))
      console.log(line);
    for (const line of fullGcLines(gcTrace.gcs, t0ServerMs, opts.warmup.seconds)) console.log(line);
    console.log(`watch reconnects ${counters.watchReconnects}`);
    if (ranS < totalS - opts.interval.seconds)
      console.log(`NOTE: stopped after ${ranS.toFixed(0)} s of the ${totalS.toFixed(0)} s asked for`);
    if (verdict.failures.length > 0) {
      console.log(`\nFAIL:\n  ${verdict.failures.join('\n  ')}`);
      return 1;
    }
    console.log(
      `\nPASS: no failed request; RSS ${mib(verdict.rssMiddle)} → ${mib(verdict.rssEnd)} in the second half ` +
        `(limit +${opts.maxRssGrowthPct}%)`,
    );
    return 0;
  } finally {
    stop.abort();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client?.close();
    await sched?.stop();
    await api?.stop();
    await redis?.close();
  }
}

let opts: SoakOptions;
try {
  opts = parseSoakArgs(process.argv.slice(2));
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
process.exitCode = await soak(opts);
