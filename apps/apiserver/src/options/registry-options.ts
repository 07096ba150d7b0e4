import {
  Duration,
  checkPositive,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationPositive,
} from '@keel/flags';

/**
 * How the generic registry keeps resources on top of the store: collection deletes and Event
 * retention. kube-apiserver lists these among its etcd flags, with the watch cache and garbage
 * collector switches Keel refuses (see flag-effects.ts), so they share the Store section.
 */
export interface RegistryConfig {
  readonly deleteCollectionWorkers: number;
  /** Events expire this long after their last write. */
  readonly eventTTL: Duration;
}

export class RegistryOptions implements OptionsGroup<{ registry?: RegistryConfig }> {
  // Keel has neither, so their defaults say so; any other value is refused at start-up.
  watchCache = false;
  watchCacheSizes: readonly string[] = [];
  deleteCollectionWorkers = 1;
  enableGarbageCollector = false;
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
        'enabled. The only meaningful size setting to supply here is zero, which means to disable watch caching for ' +
        'the associated resource; all non-zero values are equivalent and mean to not disable watch caching for that resource.',
    });
  }

  validate(): string[] {
    return [
      ...checkPositive('delete-collection-workers', this.deleteCollectionWorkers),
      ...checkDurationPositive('event-ttl', this.eventTTL),
    ];
  }

  applyTo(config: { registry?: RegistryConfig }): void {
    config.registry = {
      deleteCollectionWorkers: this.deleteCollectionWorkers,
      eventTTL: this.eventTTL,
    };
  }
}
