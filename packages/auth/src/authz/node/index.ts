export { NodeAuthorizer } from './authorizer.js';
export { NodeGraph, type GraphEdge, type GraphSource, type Vertex, type VertexType } from './graph.js';
export { feedNodeGraph, type FeedChange, type ObjectFeed } from './feed.js';
export { NODE_RULES } from './node-rules.js';
export { NODE_LEASE_NAMESPACE, NODE_USER_PREFIX, NODES_GROUP, nodeIdentity } from './identity.js';
export {
  isMirrorPod,
  MIRROR_POD_ANNOTATION,
  podNodeName,
  podReferences,
  type PodLike,
  type PodReferences,
} from './pod-references.js';
export { persistentVolumeGraphSource, podGraphSource, volumeAttachmentGraphSource } from './sources.js';
