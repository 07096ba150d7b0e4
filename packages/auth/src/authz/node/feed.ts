import type { GraphSource, NodeGraph } from './graph.js';

/** A change an informer reports (structurally @keel/storage's InformerChange). */
export type FeedChange<T> =
  { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T } | { readonly type: 'replaced' };

/** What the graph needs of an informer: its current copy and its changes. */
export interface ObjectFeed<T> {
  list(): Iterable<T>;
  subscribe(listener: (change: FeedChange<T>) => void): () => void;
}

/**
 * Keeps the graph's share of `source` equal to the feed's copy: each change is applied, and a
 * re-read (`replaced`, also the first sync) replaces the source's part at once. Returns the
 * function that stops feeding.
 */
export function feedNodeGraph<T>(graph: NodeGraph, source: GraphSource<T>, feed: ObjectFeed<T>): () => void {
  graph.reset(source, feed.list());
  return feed.subscribe((change) => {
    if (change.type === 'replaced') graph.reset(source, feed.list());
    else if (change.type === 'DELETED') graph.delete(source, change.object);
    else graph.set(source, change.object);
  });
}
