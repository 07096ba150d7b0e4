import {
  AUTO_UPDATE_ANNOTATION,
  BORROWING_ADJUSTMENT_PERIOD_MS,
  CONDITION_DANGLING,
  type FlowController,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
  type FlowSchema,
  type PriorityLevelConfiguration,
} from '@keel/flowcontrol';
import { newUid } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { Storage, StoreInformer } from '@keel/storage';
import type { Condition } from '@keel/flowcontrol';
import type { WriteContext } from '../registry/store-types.js';

/** upstream's field manager for the condition it applies. */
export const FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

/** The identity of the server's own writes, as its loopback client's. */
const LOOPBACK_USER: UserInfo = {
  name: 'system:apiserver',
  uid: '',
  groups: ['system:authenticated', 'system:masters'],
  extra: {},
};

/** What the consumer needs of the flowschemas/status store. */
export interface FlowSchemaStatusWriter {
  update(
    namespace: string,
    name: string,
    mutate: (current: FlowSchema | undefined) => { obj: FlowSchema; wire: Record<string, unknown> },
    ctx: WriteContext,
  ): Promise<unknown>;
}

const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1';
export const FLOW_SCHEMAS_KEY = '/flowschemas';
export const PRIORITY_LEVELS_KEY = '/prioritylevelconfigurations';

/** RFC 3339 to the second, as metav1.Time is written. */
const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

type Stored = (FlowSchema | PriorityLevelConfiguration) & { apiVersion?: string; kind?: string };

/**
 * upstream's shouldUpdateSpec: the annotation says whether the server keeps the spec current;
 * without a boolean there, only an object nobody changed (generation 1) is kept current.
 */
function autoUpdates(obj: Stored): boolean {
  const value = obj.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];
  if (value === 'true' || value === 'false') return value === 'true';
  return (obj.metadata.generation ?? 0) === 1;
}

/**
 * Creates or refreshes one bootstrap object. Mandatory objects always get the bootstrap spec;
 * suggested ones only while they auto-update. Each write is a compare-and-swap on the store, so
 * several servers on one Redis converge on the same object whatever their order.
 */
async function ensure(
  storage: Storage,
  keyRoot: string,
  kind: string,
  want: Stored,
  mandatory: boolean,
): Promise<void> {
  const key = `${keyRoot}/${want.metadata.name ?? ''}`;
  await storage.guaranteedUpdate<Stored>(
    key,
    (current) => {
      if (!current) {
        return {
          apiVersion: API_VERSION,
          kind,
          metadata: {
            ...want.metadata,
            uid: newUid(),
            creationTimestamp: now(),
            generation: 1,
            annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' },
          },
          spec: structuredClone(want.spec),
        } as Stored;
      }
      if (!mandatory && !autoUpdates(current)) return current;
      const sameSpec = JSON.stringify(current.spec) === JSON.stringify(want.spec);
      if (sameSpec && current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'true') return current;
      return {
        ...current,
        metadata: {
          ...current.metadata,
          annotations: { ...(current.metadata.annotations ?? {}), [AUTO_UPDATE_ANNOTATION]: 'true' },
          generation: (current.metadata.generation ?? 0) + (sameSpec ? 0 : 1),
        },
        spec: structuredClone(want.spec),
      } as Stored;
    },
    { ignoreNotFound: true },
  );
}

/**
 * `apiserver/bootstrap-system-flowcontrol-configuration`: the mandatory and suggested priority
 * levels, then the flow schemas that reference them.
 */
export async function ensureFlowControlConfiguration(storage: Storage): Promise<void> {
  for (const pl of mandatoryPriorityLevelConfigurations)
    await ensure(storage, PRIORITY_LEVELS_KEY, 'PriorityLevelConfiguration', pl, true);
  for (const pl of suggestedPriorityLevelConfigurations)
    await ensure(storage, PRIORITY_LEVELS_KEY, 'PriorityLevelConfiguration', pl, false);
  for (const fs of mandatoryFlowSchemas) await ensure(storage, FLOW_SCHEMAS_KEY, 'FlowSchema', fs, true);
  for (const fs of suggestedFlowSchemas) await ensure(storage, FLOW_SCHEMAS_KEY, 'FlowSchema', fs, false);
}

/**
 * The config consumer (`priority-and-fairness-config-consumer`): feeds the controller every
 * stored FlowSchema and PriorityLevelConfiguration from the server's informers, and keeps each
 * FlowSchema's Dangling condition saying whether its priority level exists: a forced apply of
 * that one condition through flowschemas/status, by upstream's field manager. It insists, as
 * upstream does: a condition someone else wrote is put back at the next change it sees.
 */
export class FlowControlConfigConsumer {
  private pending = false;
  private stopped = false;
  /**
   * Each Dangling write issued and not yet seen through the informer: the condition it writes
   * and the schema's resourceVersion it was issued against. Every informer event refreshes every
   * schema, and until the write comes back through the informer its copy still lacks the
   * condition: without this each refresh would issue the write again (at start-up, while the
   * bootstrap configuration is created, about a hundred such reads through the status store for
   * the thirteen writes needed).
   */
  private readonly writing = new Map<string, { readonly want: string; readonly seen: string }>();

  constructor(
    private readonly statusStore: FlowSchemaStatusWriter,
    private readonly schemas: StoreInformer,
    private readonly levels: StoreInformer,
    readonly controller: FlowController,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Resolves once the informers synced and the controller took their state in. */
  async start(signal: AbortSignal): Promise<void> {
    const unsubscribe = [
      this.schemas.subscribe(() => this.schedule()),
      this.levels.subscribe(() => this.schedule()),
    ];
    // upstream's periodic rebalancing: seats move to the levels that used them lately.
    const borrowing = setInterval(() => this.controller.adjustBorrowing(), BORROWING_ADJUSTMENT_PERIOD_MS);
    borrowing.unref();
    signal.addEventListener(
      'abort',
      () => {
        this.stopped = true;
        clearInterval(borrowing);
        unsubscribe.forEach((u) => u());
      },
      { once: true },
    );
    await Promise.all([this.schemas.waitForSync(), this.levels.waitForSync()]);
    this.refresh();
  }

  /**
   * One refresh for all the events until the next turn of the event loop: the bootstrap
   * configuration arrives as some twenty events in one chain of promise jobs, each of which
   * would otherwise rebuild the controller's levels.
   */
  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      if (!this.stopped) this.refresh();
    });
  }

  private refresh(): void {
    const schemas = [...this.schemas.list()] as unknown as FlowSchema[];
    const levels = [...this.levels.list()] as unknown as PriorityLevelConfiguration[];
    this.controller.update(schemas, levels);
    const levelNames = new Set(levels.map((l) => l.metadata.name));
    const names = new Set<string>();
    for (const fs of schemas) {
      names.add(fs.metadata.name ?? '');
      void this.markDangling(fs, !levelNames.has(fs.spec.priorityLevelConfiguration.name));
    }
    for (const name of this.writing.keys()) if (!names.has(name)) this.writing.delete(name);
  }

  private async markDangling(fs: FlowSchema, dangling: boolean): Promise<void> {
    const plName = fs.spec.priorityLevelConfiguration.name;
    const status = dangling ? 'True' : 'False';
    const reason = dangling ? 'NotFound' : 'Found';
    const message = dangling
      ? `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} but there is no such object`
      : `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} and it exists`;
    // upstream compares all three: a schema pointed at another level gets the new name in its message.
    const same = (c: Condition | undefined): boolean =>
      c?.status === status && c.reason === reason && c.message === message;
    const name = fs.metadata.name ?? '';
    if (same(fs.status?.conditions?.find((c) => c.type === CONDITION_DANGLING))) {
      this.writing.delete(name);
      return;
    }
    // Issued against this very copy: its result (or the write that beat it) is on its way.
    const want = `${status}\n${reason}\n${message}`;
    const seen = fs.metadata.resourceVersion ?? '';
    const issued = this.writing.get(name);
    if (issued?.want === want && issued.seen === seen) return;
    const mark = { want, seen };
    this.writing.set(name, mark);
    const condition: Condition = {
      type: CONDITION_DANGLING,
      status,
      lastTransitionTime: now(),
      reason,
      message,
    };
    try {
      // A forced server-side apply of the one condition, as upstream's consumer does.
      await this.statusStore.update(
        '',
        name,
        (found) => {
          // Deleted meanwhile (its deletion is on its way to the informer), or already marked.
          const conditions = found?.status?.conditions ?? [];
          if (!found || same(conditions.find((c) => c.type === CONDITION_DANGLING))) throw new NothingToDo();
          const obj: FlowSchema = {
            ...found,
            metadata: { ...found.metadata },
            status: {
              ...(found.status ?? {}),
              conditions: [...conditions.filter((c) => c.type !== CONDITION_DANGLING), condition],
            },
          };
          const wire = {
            apiVersion: API_VERSION,
            kind: 'FlowSchema',
            metadata: { name },
            status: { conditions: [condition] },
          };
          return { obj, wire };
        },
        { dryRun: false, user: LOOPBACK_USER, fieldManager: FIELD_MANAGER, operation: 'Apply', force: true },
      );
    } catch (err) {
      if (err instanceof NothingToDo) return;
      this.onError(err);
      // Tried again at the next change, as before.
      if (this.writing.get(name) === mark) this.writing.delete(name);
    }
  }
}

class NothingToDo extends Error {}
