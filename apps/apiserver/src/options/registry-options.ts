import {
  Duration,
  checkPositive,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationPositive,
} from '@keel/flags';

/**
 * How the generic registry keeps resources on top of the store: the watch cache, collection
 * deletes, the garbage collector and Event retention. kube-apiserver lists these among its etcd
 * flags, so they share the Store section.
 */
export interface RegistryConfig {
  /** Lists and watches served from memory where their semantics allow (see @keel/storage's watch cache). */
  readonly watchCache: boolean;
  /** Per-resource watch cache sizes keyed `resource[.group]`: 0 turns it off, N keeps N recent events. */
  readonly watchCacheSizes: ReadonlyMap<string, number>;
  readonly deleteCollectionWorkers: number;
  /** Deletes add the collector's finalizers and the API server runs the garbage collector. */
  readonly enableGarbageCollector: boolean;
  /** Events expire this long after their last write. */
  readonly eventTTL: Duration;
}

const SIZE = /^[+-]?\d+$/;

function parseWatchCacheSize(entry: string): { key: string; size: number } | string {
  const fail = (why: string) => `--watch-cache-sizes ${JSON.stringify(entry)} ${why}`;
  const tokens = entry.split('#');
  if (tokens.length !== 2) return fail('must have the form resource[.group]#size');
  const [key = '', sizeText = ''] = tokens;
  if (key === '' || key.startsWith('.')) return fail('must name a resource before #');
  if (!SIZE.test(sizeText)) return fail('has a size that is not an integer');
  const size = Number(sizeText);
  if (size < 0) return fail('has a negative size');
  return { key, size };
}

export class RegistryOptions implements OptionsGroup<{ registry?: RegistryConfig }> {
  watchCache = true;
  watchCacheSizes: readonly string[] = [];
  deleteCollectionWorkers = 1;
  enableGarbageCollector = true;
  eventTTL = Duration.parse('1h');

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Store');
    s.var(this, 'deleteCollectionWorkers', {
      name: 'delete-collection-workers',
      type: t.int,
      usage:
        'Number of workers spawned for DeleteCollection call. These are used to speed up namespace cleanup.',
    });
    s.var(this, 'enableGarbageCollector', {
      name: 'enable-garbage-collector',
      type: t.bool,
      usage:
        'Enables the generic garbage collector. MUST be synced with the corresponding flag of the controller manager.',
    });
    s.var(this, 'eventTTL', {
      name: 'event-ttl',
      type: t.duration,
      usage: 'Amount of time to retain events.',
    });
    s.var(this, 'watchCache', {
      name: 'watch-cache',
      type: t.bool,
      usage: 'Enable watch caching in the apiserver.',
    });
    s.var(this, 'watchCacheSizes', {
      name: 'watch-cache-sizes',
      type: t.strings,
      usage:
        'Watch cache size settings for some resources (pods, nodes, etc.), comma separated. The individual setting ' +
        'format: resource[.group]#size, where resource is lowercase plural (no version), group is omitted for ' +
        'resources of apiVersion v1 (the legacy core API) and included for others, and size is a number. This option ' +
        'is only meaningful for resources built into the apiserver, and is only consulted if the watch-cache is ' +
        'enabled. A size of zero disables watch caching for the associated resource; any other size enables it and is ' +
        'how many recent events of that resource the cache keeps for watches to resume from (without a size the ' +
        'window adapts, from 100 events up).',
    });
  }

  validate(): string[] {
    return [
      ...checkPositive('delete-collection-workers', this.deleteCollectionWorkers),
      ...checkDurationPositive('event-ttl', this.eventTTL),
      ...this.watchCacheSizes.map(parseWatchCacheSize).filter((r): r is string => typeof r === 'string'),
    ];
  }

  applyTo(config: { registry?: RegistryConfig }): void {
    const sizes = new Map<string, number>();
    for (const entry of this.watchCacheSizes) {
      const parsed = parseWatchCacheSize(entry);
      if (typeof parsed !== 'string') sizes.set(parsed.key, parsed.size);
    }
    config.registry = {
      watchCache: this.watchCache,
      watchCacheSizes: sizes,
      deleteCollectionWorkers: this.deleteCollectionWorkers,
      enableGarbageCollector: this.enableGarbageCollector,
      eventTTL: this.eventTTL,
    };
  }
}
