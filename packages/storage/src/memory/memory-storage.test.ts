import { describeStorageConformance } from '../testing/index.js';
import { createMemoryStorage } from './memory-storage.js';

describeStorageConformance('memory', (opts) => Promise.resolve(createMemoryStorage(opts)));

// The same promises with every list that may be served from memory served by the watch cache.
describeStorageConformance('memory, watch cache', (opts) =>
  Promise.resolve(createMemoryStorage({ ...opts, watchCache: () => true })),
);
