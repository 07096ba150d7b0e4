export * from './types.js';
export type { ObjectMetaLike } from './meta.js';
export * from './bootstrap-policy/index.js';
