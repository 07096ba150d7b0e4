import { feedNodeGraph, podGraphSource, type GraphSource, type NodeGraph, type ObjectFeed } from '@keel/auth';
import type { ServerInformers } from './informers.js';

/**
 * The kinds the node graph is fed from, as far as Keel serves them: pods now; persistent
 * volumes (persistentVolumeGraphSource) and volume attachments (volumeAttachmentGraphSource)
 * join this list when those resources are served.
 */
export const NODE_GRAPH_SOURCES: readonly GraphSource<never>[] = [podGraphSource];

/** Feeds the node authorizer's graph from the server's informers over each source's key root. */
export function feedNodeGraphFromInformers(
  graph: NodeGraph,
  informers: ServerInformers,
  sources: readonly GraphSource<never>[] = NODE_GRAPH_SOURCES,
): void {
  for (const source of sources) {
    // The informer holds what was stored under the source's key root: objects of its kind.
    const feed = informers.informer(source.keyRoot) as unknown as ObjectFeed<never>;
    feedNodeGraph(graph, source, feed);
  }
}
