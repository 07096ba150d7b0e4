import type { WatchCacheSize } from '@keel/storage';
import type { RegistryConfig } from '../options/registry-options.js';
import { STORED_RESOURCE_GROUPS, storedResource } from './stored-resources.js';

/** Upstream's DefaultWatchCacheSizes: Events are many and short-lived, so they are not cached. */
const OFF_BY_DEFAULT = new Set(['events']);

export interface WatchCachePolicy {
  /**
   * Which key roots (`/pods`) are cached and with how many events: false or 0 not cached, true
   * upstream's adaptive window, N a window of N events; undefined when --watch-cache=false.
   */
  readonly enabled: ((keyRoot: string) => WatchCacheSize) | undefined;
  /** --watch-cache-sizes entries that name no resource Keel stores. */
  readonly errors: string[];
}

/** The stored resource a `resource[.group]` entry names, if Keel stores it. */
function storedResourceNamed(name: string): string | undefined {
  const dot = name.indexOf('.');
  return dot === -1 ? storedResource('', name) : storedResource(name.slice(dot + 1), name.slice(0, dot));
}

/**
 * --watch-cache and --watch-cache-sizes: every stored resource is cached but Events (upstream's
 * defaults); a size of 0 turns one off, any other size turns it on. The cache holds every object
 * whatever the size; the size is how many recent events its window keeps for watches to resume
 * from (upstream sizes that window itself, from 100 events up, and ignores non-zero sizes).
 */
export function watchCachePolicy(registry: RegistryConfig): WatchCachePolicy {
  const sizes = new Map<string, number>();
  const errors: string[] = [];
  for (const [name, size] of registry.watchCacheSizes) {
    const resource = storedResourceNamed(name);
    if (resource === undefined) {
      errors.push(`--watch-cache-sizes names ${name}, which Keel does not store`);
      continue;
    }
    sizes.set(resource, size);
  }
  if (!registry.watchCache) return { enabled: undefined, errors };
  return {
    errors,
    enabled: (keyRoot) => {
      const resource = keyRoot.slice(1);
      if (!Object.hasOwn(STORED_RESOURCE_GROUPS, resource)) return false;
      const size = sizes.get(resource);
      return size ?? !OFF_BY_DEFAULT.has(resource);
    },
  };
}
