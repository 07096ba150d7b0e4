import type { UserInfo } from '../../authn/types.js';

/** The group every node agent's credentials carry (kube's user.NodesGroup). */
export const NODES_GROUP = 'system:nodes';
/** Node agents are users named `system:node:<nodeName>`. */
export const NODE_USER_PREFIX = 'system:node:';
/** Where each node keeps its heartbeat Lease (kube-node-lease in the real server). */
export const NODE_LEASE_NAMESPACE = 'platform-node-lease';

/**
 * Whether the user is a node agent, and which node (kube's default NodeIdentifier): the name
 * must start with `system:node:` and the groups hold `system:nodes`. A node user with nothing
 * after the prefix is a node that cannot be identified (name '').
 */
export function nodeIdentity(user: UserInfo): { readonly isNode: boolean; readonly nodeName: string } {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) {
    return { isNode: false, nodeName: '' };
  }
  return { isNode: true, nodeName: user.name.slice(NODE_USER_PREFIX.length) };
}
