export * from './types.js';
export type { ObjectMetaLike } from './meta.js';
