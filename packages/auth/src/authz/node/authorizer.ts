import type { PolicyRule } from '../rbac/types.js';
import type { Attributes, Authorizer, Decision } from '../types.js';
import type { NodeGraph, VertexType } from './graph.js';
import { NODE_LEASE_NAMESPACE, nodeIdentity } from './identity.js';
import { NODE_RULES, rulesAllow } from './node-rules.js';

const ALLOW: Decision = { decision: 'allow', reason: '' };
const NO_OPINION: Decision = { decision: 'noOpinion', reason: '' };

function no(reason: string): Decision {
  return { decision: 'noOpinion', reason };
}

/**
 * --authorization-mode Node (kube's NodeAuthorizer, with AuthorizeNodeWithSelectors off: Keel's
 * authorizer attributes carry no field selectors, so nodes and pods are left to the static
 * rules and NodeRestriction). Only node agents get an opinion: secrets, configmaps, claims,
 * volumes and service-account tokens only where the graph relates them to the node, their own
 * Lease, and otherwise whatever the static node rules allow. It never denies: another mode may
 * still allow what it does not.
 */
export class NodeAuthorizer implements Authorizer {
  constructor(
    private readonly graph: NodeGraph,
    private readonly rules: readonly PolicyRule[] = NODE_RULES,
  ) {}

  authorize(attrs: Attributes): Promise<Decision> {
    return Promise.resolve(this.decide(attrs));
  }

  private decide(attrs: Attributes): Decision {
    const { isNode, nodeName } = nodeIdentity(attrs.user);
    if (!isNode) return NO_OPINION;
    if (nodeName === '') return no(`unknown node for user ${JSON.stringify(attrs.user.name)}`);
    if (attrs.isResourceRequest) {
      const decided = this.subdivided(nodeName, attrs);
      if (decided) return decided;
    }
    return rulesAllow(attrs, this.rules) ? ALLOW : NO_OPINION;
  }

  /** The resources the node authorizer decides itself; undefined for the rest. */
  private subdivided(node: string, attrs: Attributes): Decision | undefined {
    switch (`${attrs.apiGroup}/${attrs.resource}`) {
      case '/secrets':
        return this.readNamespaced(node, 'secret', attrs);
      case '/configmaps':
        return this.readNamespaced(node, 'configmap', attrs);
      case '/persistentvolumeclaims':
        return attrs.subresource === 'status'
          ? this.statusUpdate(node, 'pvc', attrs)
          : this.getRelated(node, 'pvc', attrs);
      case '/persistentvolumes':
        return this.getRelated(node, 'pv', attrs);
      case 'resource.k8s.io/resourceclaims':
        return this.getRelated(node, 'resourceclaim', attrs);
      case 'storage.k8s.io/volumeattachments':
        return this.getRelated(node, 'volumeattachment', attrs);
      case '/serviceaccounts':
        return this.createToken(node, attrs);
      case 'coordination.k8s.io/leases':
        return this.lease(node, attrs);
      case 'storage.k8s.io/csinodes':
        return this.csiNode(node, attrs);
      case 'resource.k8s.io/resourceslices':
        return this.resourceSlice(node, attrs);
      default:
        return undefined;
    }
  }

  private related(node: string, type: VertexType, attrs: Attributes): Decision {
    if (attrs.name === '') return no('No Object name found');
    if (this.graph.reaches(node, { type, namespace: attrs.namespace, name: attrs.name })) return ALLOW;
    return no(`no relationship found between node '${node}' and this object`);
  }

  private statusUpdate(node: string, type: VertexType, attrs: Attributes): Decision {
    if (attrs.verb !== 'update' && attrs.verb !== 'patch') return no('can only get/update/patch this type');
    if (attrs.subresource !== 'status') return no('can only update status subresource');
    return this.related(node, type, attrs);
  }

  private getRelated(node: string, type: VertexType, attrs: Attributes): Decision {
    if (attrs.verb !== 'get') return no('can only get individual resources of this type');
    if (attrs.subresource !== '') return no('cannot get subresource');
    return this.related(node, type, attrs);
  }

  private readNamespaced(node: string, type: VertexType, attrs: Attributes): Decision {
    if (!['get', 'list', 'watch'].includes(attrs.verb)) return no('can only read resources of this type');
    if (attrs.subresource !== '') return no('cannot read subresource');
    if (attrs.namespace === '') return no('can only read namespaced object of this type');
    return this.related(node, type, attrs);
  }

  private createToken(node: string, attrs: Attributes): Decision {
    if (attrs.verb !== 'create' || attrs.name === '') {
      return no('can only create tokens for individual service accounts');
    }
    if (attrs.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.related(node, 'serviceAccount', attrs);
  }

  private lease(node: string, attrs: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) {
      return no('can only get, create, update, patch, or delete a node lease');
    }
    if (attrs.namespace !== NODE_LEASE_NAMESPACE) {
      return no(`can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
    }
    // The name of a create is in the body, which NodeRestriction checks.
    if (attrs.verb !== 'create' && attrs.name !== node) {
      return no('can only access node lease with the same name as the requesting node');
    }
    return ALLOW;
  }

  private csiNode(node: string, attrs: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) {
      return no('can only get, create, update, patch, or delete a CSINode');
    }
    if (attrs.subresource !== '') return no('cannot authorize CSINode subresources');
    if (attrs.verb !== 'create' && attrs.name !== node) {
      return no('can only access CSINode with the same name as the requesting node');
    }
    return ALLOW;
  }

  private resourceSlice(node: string, attrs: Attributes): Decision {
    if (attrs.subresource !== '') return no('cannot authorize ResourceSlice subresources');
    switch (attrs.verb) {
      case 'create':
      case 'watch':
      case 'list':
      case 'deletecollection':
        // Without field selectors kube allows these broadly; NodeRestriction checks the objects.
        return ALLOW;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.related(node, 'resourceslice', attrs);
      default:
        return no(
          'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
        );
    }
  }
}
