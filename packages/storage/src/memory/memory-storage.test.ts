import { describeStorageConformance } from '../testing/index.js';
import { createMemoryStorage } from './memory-storage.js';

describeStorageConformance('memory', (opts) => Promise.resolve(createMemoryStorage(opts)));
