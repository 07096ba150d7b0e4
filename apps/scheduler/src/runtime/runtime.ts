/**
 * The scheduler process after start-up (kube-scheduler's Run): its API clients, the informers,
 * and the scheduling loop, under leader election unless `--leader-elect=false`. As in kube, the
 * caches sync before the replica campaigns (unless delayCacheUntilActive), only the leader
 * schedules, a clean shutdown releases the lease and exits 0, and a lost lease stops binding at
 * once and exits 1 so the supervisor restarts the process as a candidate.
 */
import { defaultUserAgent, RestClient, type Connection } from '@keel/client';
import type { LeaderElectionHealthChecker, LeaderElector, RunResult } from '@keel/leaderelection';
import type { Logger } from '@keel/log';
import type { SchedulerSettings } from '../options/index.js';
import type { SchedulerMetrics } from '../server/metrics.js';
import { clientOptions } from './connection.js';
import { EventBroadcaster, LegacyEventRecorder } from './events.js';
import { electorHealthCheck, newSchedulerElector } from './leader.js';
import { Scheduler } from './scheduler.js';
import { EVENT_WRITES_IN_FLIGHT, limitWrites, SCHEDULER_WRITES_IN_FLIGHT } from './write-limit.js';

/** Exit status after losing the lease (kube-scheduler's klog.FlushAndExit(..., 1)). */
export const EXIT_LEADERSHIP_LOST = 1;

/** An event write the server does not answer in this time frees its slot (and is logged). */
const EVENT_TIMEOUT_MS = 10_000;

/** How long a process that lost its lease may take to wind down before it is made to exit. */
const LOST_EXIT_GRACE_MS = 5_000;

export interface RuntimeOptions {
  readonly settings: SchedulerSettings;
  readonly connection: Connection;
  readonly metrics: SchedulerMetrics;
  readonly logger: Logger;
  /** Elector identity; `<hostname>_<uuid>` by default. */
  readonly identity?: string;
  /** The clients' User-Agent, before the `/<purpose>` suffix; default @keel/client's. */
  readonly userAgent?: string;
}

export class SchedulerRuntime {
  /** The `leaderElection` health check, when leader election is on. */
  readonly healthCheck: LeaderElectionHealthChecker | undefined;
  private readonly clients: RestClient[] = [];
  private elector: LeaderElector | undefined;

  constructor(private readonly opts: RuntimeOptions) {
    const le = opts.settings.configuration.leaderElection;
    this.healthCheck = le.leaderElect ? electorHealthCheck(() => this.elector) : undefined;
  }

  private client(agent: string, timeoutMs = 0): RestClient {
    const cc = this.opts.settings.configuration.clientConnection;
    const base = this.opts.userAgent ?? defaultUserAgent;
    const ua = agent === '' ? base : `${base}/${agent}`;
    const c = new RestClient(this.opts.connection, clientOptions(cc, ua, timeoutMs));
    this.clients.push(c);
    return c;
  }

  /** Runs until `signal` aborts (exit status 0) or leadership is lost (EXIT_LEADERSHIP_LOST). */
  async run(signal: AbortSignal): Promise<number> {
    const { settings, metrics, logger } = this.opts;
    const cfg = settings.configuration;
    // Events have their own client (kube's eventClient), so their writes never delay a binding.
    const eventClient = limitWrites(this.client('', EVENT_TIMEOUT_MS), EVENT_WRITES_IN_FLIGHT);
    const events = new EventBroadcaster({ client: eventClient, logger });
    events.start();
    const scheduler = new Scheduler({
      configuration: cfg,
      maxInUnschedulableMs: settings.podMaxInUnschedulablePodsDuration.milliseconds,
      client: limitWrites(this.client('scheduler'), SCHEDULER_WRITES_IN_FLIGHT),
      events,
      metrics,
      logger,
    });
    const lockEvents = new LegacyEventRecorder(
      eventClient,
      cfg.profiles[0]?.schedulerName ?? 'default-scheduler',
      logger,
    );
    try {
      if (!cfg.leaderElection.leaderElect) {
        await this.schedule(scheduler, signal, true);
        return 0;
      }
      const delay = cfg.delayCacheUntilActive;
      if (!delay) {
        scheduler.startInformers();
        if (!(await scheduler.waitForCacheSync(signal))) return 0;
      }
      const result = await this.elect(scheduler, lockEvents, signal, !delay);
      if (result === 'lost') {
        logger.error('Leaderelection lost');
        // kube-scheduler exits at once. The clean-up below (informers, event flushes, clients,
        // then the secure port) gets a short grace, and should anything in it hang, this
        // otherwise idle timer ends the process anyway: a replica that lost its lease must be
        // restarted by its supervisor, never linger.
        setTimeout(() => process.exit(EXIT_LEADERSHIP_LOST), LOST_EXIT_GRACE_MS).unref();
        return EXIT_LEADERSHIP_LOST;
      }
      return 0;
    } finally {
      await scheduler.stop();
      events.close();
      await Promise.all([events.flush(), lockEvents.flush()]);
      await Promise.all(this.clients.map((c) => c.close()));
    }
  }

  /** The scheduling loop for as long as `signal` (leadership, or the process) lasts. */
  private async schedule(scheduler: Scheduler, signal: AbortSignal, startInformers: boolean): Promise<void> {
    if (startInformers) scheduler.startInformers();
    if (!(await scheduler.waitForCacheSync(signal))) return;
    await scheduler.run(signal);
  }

  private async elect(
    scheduler: Scheduler,
    recorder: LegacyEventRecorder,
    signal: AbortSignal,
    synced: boolean,
  ): Promise<RunResult> {
    const { settings, logger } = this.opts;
    let loop: Promise<void> | undefined;
    // A scheduling loop that fails while leading ends the election too (kube would crash).
    const failed = new AbortController();
    let failure: Error | undefined;
    this.elector = newSchedulerElector({
      config: settings.configuration.leaderElection,
      client: this.client(
        'leader-election',
        settings.configuration.leaderElection.renewDeadline.milliseconds,
      ),
      recorder,
      logger,
      ...(this.opts.identity !== undefined ? { identity: this.opts.identity } : {}),
      callbacks: {
        onStartedLeading: (leading) => {
          logger.info('Started leading');
          loop = this.schedule(scheduler, leading, !synced).catch((err: unknown) => {
            failure = err instanceof Error ? err : new Error(String(err));
            failed.abort(failure);
          });
        },
        onStoppedLeading: () => logger.info('Stopped leading'),
        onNewLeader: (id) => {
          if (id !== '') logger.info('New leader elected', { identity: id });
        },
      },
    });
    const result = await this.elector.run(AbortSignal.any([signal, failed.signal]));
    await loop;
    if (failure !== undefined) throw failure;
    return result;
  }
}
