/**
 * One scheduler instance (kube's scheduler.New plus Run): the profiles' frameworks with the
 * DefaultBinder, the queue, the cache, the informers that feed them, and the scheduling loop with
 * what it reports after each attempt (events, the PodScheduled condition, metrics).
 */
import type { RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import { SchedulerCache } from '../cache/cache.js';
import { Extenders, withExtenderIgnoredResources } from '../extender/extenders.js';
import { Framework } from '../framework/framework.js';
import type {
  BindPlugin,
  ClusterObjects,
  FrameworkHandle,
  PluginFactory,
  QueuedPodInfo,
} from '../framework/interface.js';
import { Status } from '../framework/status.js';
import { podName, type Pod } from '../framework/types.js';
import type { VolumeListers } from '../framework/volume-objects.js';
import type { SchedulerConfiguration } from '../options/index.js';
import { newInTreeRegistry } from '../plugins/default-registry.js';
import type { Clock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { PREEMPTION_DONE, type PriorityQueueOptions } from '../queue/scheduling-queue.js';
import { newEventHandlers, type EventHandlers } from '../scheduling/event-handlers.js';
import { Nominator } from '../scheduling/nominator.js';
import { isAssigned, schedulerNameOf } from '../scheduling/pod-filters.js';
import { PodScheduler } from '../scheduling/schedule-one.js';
import {
  runSchedulerLoop,
  type FailureReason,
  type SchedulerLoopDeps,
} from '../scheduling/scheduler-loop.js';
import type { SchedulerMetrics, UnschedulableCount } from '../server/metrics.js';
import { DEFAULT_BINDER, defaultBinder } from './binder.js';
import type { EventBroadcaster, Recorder } from './events.js';
import { newSchedulerInformers, type SchedulerInformers } from './informers.js';
import { patchPodScheduledFalse } from './pod-condition.js';
import { podReference } from './pod-reference.js';
import { PreemptionExecutor } from './preemption-executor.js';
import { TimedQueue } from './timed-queue.js';
import { volumeWriter } from './volume-informers.js';

/** One framework per profile, by scheduler name; throws with kube's wording on a bad profile. */
export function buildFrameworks(
  configuration: Pick<SchedulerConfiguration, 'profiles'>,
  binder: PluginFactory,
  objects?: ClusterObjects,
  extra: Omit<FrameworkHandle, 'profileName' | 'objects'> = {},
): Map<string, Framework> {
  const registry = newInTreeRegistry().register(DEFAULT_BINDER, binder);
  return new Map(
    configuration.profiles.map((p) => [p.schedulerName, Framework.fromProfile(p, registry, objects, extra)]),
  );
}

/** Extenders that cannot be built (their TLS files), for start-up errors. */
export function extenderErrors(configuration: Pick<SchedulerConfiguration, 'extenders'>): string[] {
  try {
    Extenders.fromConfig(configuration.extenders).close();
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}

/** The profile problems only building the frameworks finds, for start-up errors. */
export function profileErrors(configuration: Pick<SchedulerConfiguration, 'profiles'>): string[] {
  const unused: BindPlugin = { name: DEFAULT_BINDER, bind: () => Promise.resolve(undefined) };
  try {
    buildFrameworks(configuration, () => unused);
    return [];
  } catch (err) {
    return [`initializing profiles: ${err instanceof Error ? err.message : String(err)}`];
  }
}

export { podReference } from './pod-reference.js';

/**
 * The queue the configuration asks for: backoffs from podInitialBackoffSeconds and
 * podMaxBackoffSeconds, the leftover timeout from --pod-max-in-unschedulable-pods-duration, the
 * first profile's sort and each pod's profile's PreEnqueue plugins.
 */
export function newSchedulingQueue(
  cfg: Pick<SchedulerConfiguration, 'podInitialBackoffSeconds' | 'podMaxBackoffSeconds'>,
  maxInUnschedulableMs: number,
  frameworks: ReadonlyMap<string, Framework>,
  extra: {
    readonly clock?: Clock;
    readonly onIncoming?: PriorityQueueOptions['onIncoming'];
    /** Whether the pod's preemption is still deleting its victims: it is held back until then. */
    readonly preempting?: (pod: Pod) => boolean;
  } = {},
): PriorityQueue {
  const first = [...frameworks.values()][0];
  if (!first) throw new Error('at least one profile is required');
  const { preempting, ...rest } = extra;
  return new PriorityQueue({
    less: first.queueSortLess(),
    // kube's DefaultPreemption PreEnqueue (asynchronous preemption): a preemptor is not retried
    // while its victims are being deleted; the end of its preemption requeues it.
    preEnqueue: (pod) =>
      preempting?.(pod)
        ? PREEMPTION_RUNNING
        : frameworks.get(schedulerNameOf(pod))?.runPreEnqueuePlugins(pod),
    initialBackoffMs: cfg.podInitialBackoffSeconds * 1000,
    maxBackoffMs: cfg.podMaxBackoffSeconds * 1000,
    maxInUnschedulableMs,
    ...rest,
  });
}

const PREEMPTION_RUNNING = Status.unresolvable('waiting for the preemption of its victims').withPlugin(
  'DefaultPreemption',
);

/** scheduler_unschedulable_pods: each waiting pod counts once for every plugin that rejected it. */
function unschedulableCounts(
  pods: readonly QueuedPodInfo[],
  preempting: (pod: Pod) => boolean,
): UnschedulableCount[] {
  const counts = new Map<string, { plugin: string; profile: string; count: number }>();
  const add = (plugin: string, profile: string) => {
    const key = `${plugin}\0${profile}`;
    const c = counts.get(key);
    if (c) c.count++;
    else counts.set(key, { plugin, profile, count: 1 });
  };
  for (const p of pods) {
    const profile = schedulerNameOf(p.pod);
    // A gated pod was held back by PreEnqueue: by SchedulingGates (Keel's only PreEnqueue
    // plugin), or by DefaultPreemption while its preemption runs.
    if (p.gated) add(preempting(p.pod) ? 'DefaultPreemption' : 'SchedulingGates', profile);
    else for (const plugin of p.unschedulablePlugins) add(plugin, profile);
  }
  return [...counts.values()];
}

export interface SchedulerDeps {
  readonly configuration: SchedulerConfiguration;
  /** `--pod-max-in-unschedulable-pods-duration`. */
  readonly maxInUnschedulableMs: number;
  /** Lists, watches, binds, patches pod status and deletes preemption victims. */
  readonly client: Pick<RestClient, 'list' | 'watch' | 'create' | 'patch' | 'delete'>;
  readonly events: EventBroadcaster;
  readonly metrics: SchedulerMetrics;
  readonly logger: Logger;
}

export class Scheduler {
  readonly cache = new SchedulerCache();
  readonly queue: TimedQueue;
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly informers: SchedulerInformers;
  /** The configuration's extenders; DefaultPreemption calls `extenders.preempt`. */
  readonly extenders: Extenders;
  readonly nominator = new Nominator();
  private readonly preemption: PreemptionExecutor;
  private readonly recorders = new Map<string, Recorder>();
  private readonly podScheduler: PodScheduler;
  private synced = false;

  constructor(private readonly deps: SchedulerDeps) {
    const cfg = deps.configuration;
    // The plugins read namespaces, services and workloads through the informers, which are made
    // below; the workload informers only if a plugin asked for them while being built.
    let workloads = false;
    const objects: ClusterObjects = {
      namespaceLabels: (n) => this.informers.objects.namespaceLabels(n),
      namespacesMatching: (sel) => this.informers.objects.namespacesMatching(sel),
      serviceSelectors: (ns) => this.informers.objects.serviceSelectors(ns),
      watchWorkloads: () => {
        workloads = true;
      },
      replicationControllerSelector: (ns, n) => this.informers.objects.replicationControllerSelector(ns, n),
      workloadSelector: (kind, ns, n) => this.informers.objects.workloadSelector(kind, ns, n),
    };
    const volumes: VolumeListers = {
      persistentVolume: (n) => this.informers.volumes.persistentVolume(n),
      persistentVolumes: () => this.informers.volumes.persistentVolumes(),
      persistentVolumeClaim: (ns, n) => this.informers.volumes.persistentVolumeClaim(ns, n),
      storageClass: (n) => this.informers.volumes.storageClass(n),
      csiNode: (n) => this.informers.volumes.csiNode(n),
      csiDriver: (n) => this.informers.volumes.csiDriver(n),
      csiStorageCapacities: () => this.informers.volumes.csiStorageCapacities(),
    };
    this.extenders = Extenders.fromConfig(cfg.extenders, deps.logger);
    this.preemption = new PreemptionExecutor({
      client: deps.client,
      recorder: (profile) => this.recorders.get(profile),
      logger: deps.logger,
      podDisruptionBudgets: () => this.informers.podDisruptionBudgets(),
      victimInCache: (victim) => {
        const cached = this.cache.getPod(victim);
        return cached !== undefined && !cached.metadata.deletionTimestamp;
      },
      onDone: (pod) => this.queue.reconsiderHeld(pod, PREEMPTION_DONE),
    });
    this.frameworks = buildFrameworks(
      { profiles: withExtenderIgnoredResources(cfg.profiles, cfg.extenders) },
      defaultBinder(deps.client),
      objects,
      {
        nominator: this.nominator,
        preemption: this.preemption,
        preemptionMetrics: deps.metrics.preemption,
        extenders: this.extenders,
        volumes,
        volumeWriter: volumeWriter(deps.client),
      },
    );
    for (const fwk of this.frameworks.values()) fwk.recordMetrics(deps.metrics.framework);
    const inner = newSchedulingQueue(cfg, deps.maxInUnschedulableMs, this.frameworks, {
      onIncoming: (queue, event) => deps.metrics.incomingPod(queue, event),
      preempting: (pod) => this.preemption.isPreempting(pod),
    });
    this.queue = new TimedQueue(inner);
    deps.metrics.setPendingPodsSource(() => this.queue.pendingCounts());
    deps.metrics.setUnschedulablePodsSource(() =>
      unschedulableCounts(this.queue.unschedulablePodInfos(), (pod) => this.preemption.isPreempting(pod)),
    );
    deps.metrics.setCacheSizeSource(() => ({
      nodes: this.cache.nodeCount(),
      pods: this.cache.podCount(),
      assumed_pods: this.cache.assumedPodCount(),
    }));
    this.podScheduler = new PodScheduler({
      percentageOfNodesToScore: cfg.percentageOfNodesToScore,
      extenders: this.extenders,
    });
    for (const name of this.frameworks.keys()) this.recorders.set(name, deps.events.newRecorder(name));
    const base = newEventHandlers(this.cache, this.queue, new Set(this.frameworks.keys()), this.nominator);
    // A preemption waits for its victims to leave the cache before the preemptor is retried.
    const handlers: EventHandlers = {
      ...base,
      onPodUpdate: (oldPod, newPod) => {
        base.onPodUpdate(oldPod, newPod);
        this.preemption.podChanged(newPod);
      },
      onPodDelete: (pod) => {
        base.onPodDelete(pod);
        this.preemption.podChanged(pod);
      },
    };
    this.informers = newSchedulerInformers({
      client: deps.client,
      handlers,
      logger: deps.logger,
      workloads,
    });
  }

  /** Starts listing and watching pods and nodes. */
  startInformers(): void {
    this.informers.start();
  }

  /** Resolves true once pods and nodes are listed; false if `signal` aborts first. */
  async waitForCacheSync(signal: AbortSignal): Promise<boolean> {
    const wasSynced = this.synced;
    this.synced = await this.informers.waitForSync(signal);
    if (this.synced && !wasSynced)
      this.deps.logger.info('Caches populated', { nodes: this.cache.nodeCount() });
    return this.synced;
  }

  /**
   * Schedules until `signal` aborts, then waits for the bindings in progress (which the signal
   * aborts too). Call after the caches synced; meanwhile the queue fills from the informers.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.queue.run();
    const loop: SchedulerLoopDeps = {
      queue: this.queue,
      cache: this.cache,
      frameworks: this.frameworks,
      podScheduler: this.podScheduler,
      extenders: this.extenders,
      nominator: this.nominator,
      onScheduled: (pod, node, profile) => this.scheduled(pod, node, profile),
      onFailure: (pod, reason, message, profile, nominated) =>
        this.failed(pod, reason, message, profile, signal, nominated),
      onSkipped: (pod, why) => {
        this.queue.finish(pod);
        this.deps.logger.v(3).info('Skip schedule deleting pod', { pod: podName(pod), why });
      },
      onError: (err) => this.deps.logger.error('Reporting a scheduling result failed', { err }),
      observeAlgorithm: (seconds) => this.deps.metrics.algorithmDuration.observe({}, seconds),
    };
    this.deps.logger.info('Starting scheduling', { profiles: [...this.frameworks.keys()].join(',') });
    await runSchedulerLoop(loop, signal);
    await this.preemption.settle();
  }

  /** Stops the queue's loops and the informers. */
  async stop(): Promise<void> {
    this.queue.close();
    await this.informers.stop();
    this.extenders.close();
  }

  private recorder(profile: string): Recorder {
    const r = this.recorders.get(profile);
    if (!r) throw new Error(`no event recorder for profile ${profile}`);
    return r;
  }

  private scheduled(pod: Pod, node: string, profile: string): void {
    const t = this.queue.finish(pod);
    this.deps.metrics.observeAttempt(
      'scheduled',
      profile,
      t?.attemptSeconds ?? 0,
      t ? { e2eSeconds: t.sinceFirstAttemptSeconds, attempts: t.attempts } : undefined,
    );
    this.deps.logger.v(2).info('Successfully bound pod to node', { pod: podName(pod), node });
    const ns = pod.metadata.namespace ?? '';
    this.recorder(profile).eventf(
      podReference(pod),
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${ns}/${pod.metadata.name ?? ''} to ${node}`,
    );
  }

  /** kube's handleSchedulingFailure, after the queue took the pod back. */
  private failed(
    pod: Pod,
    reason: FailureReason,
    message: string,
    profile: string,
    signal: AbortSignal,
    nominatedNodeName?: string,
  ): void {
    const t = this.queue.finish(pod);
    const log = this.deps.logger;
    // A binding cut short because leadership ended is not the pod's failure, and a replica that
    // may no longer lead must not write about pods any more.
    if (signal.aborted) return;
    this.deps.metrics.observeAttempt(
      reason === 'Unschedulable' ? 'unschedulable' : 'error',
      profile,
      t?.attemptSeconds ?? 0,
    );
    if (reason === 'Unschedulable') {
      log.v(2).info('Unable to schedule pod; no fit; waiting', { pod: podName(pod), err: message });
    } else {
      log.error('Error scheduling pod; retrying', { pod: podName(pod), err: new Error(message) });
    }
    // kube writes even then; Keel does not mark a pod the watch already shows bound (a binding
    // that raced another scheduler's) or gone as unschedulable.
    const current = this.informers.getPod(podName(pod));
    if (!current || current.metadata.uid !== pod.metadata.uid || isAssigned(current)) {
      log.info('Pod is assigned or gone; not reporting the failure', { pod: podName(pod) });
      return;
    }
    this.recorder(profile).eventf(podReference(pod), 'Warning', 'FailedScheduling', 'Scheduling', message);
    patchPodScheduledFalse(this.deps.client, current, reason, message, Date.now(), nominatedNodeName).catch(
      (err: unknown) => log.error('Error updating pod', { pod: podName(pod), err }),
    );
  }
}
