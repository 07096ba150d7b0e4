/**
 * NodeRestriction (kube's plugin/pkg/admission/noderestriction): what a node agent
 * (`system:node:<name>` in `system:nodes`) may write. Its own Node only, without steering labels
 * or taints; mirror pods bound to itself; the status of, and evictions for, its own pods; its
 * own Lease; tokens only for pods on itself. Other users, and other resources, pass untouched.
 */
import { notFound } from '@keel/apimachinery';
import { NODE_LEASE_NAMESPACE, nodeIdentity } from '@keel/auth';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { obj, sameJson, str, strings } from './json.js';
import { forbiddenLabelChanges } from './node-labels.js';
import { admitPods, type PodRuleDeps } from './node-restriction-pods.js';

const q = (s: string) => JSON.stringify(s);

export function nodeRestriction(deps: PodRuleDeps): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    // A mutating plugin in kube: it runs before the object is defaulted and validated.
    admit: (attrs) => admitNodeRequest(attrs, deps),
  };
}

function admitNodeRequest(attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  const { isNode, nodeName } = nodeIdentity(attrs.user);
  if (!isNode) return;
  if (nodeName === '') {
    throw admissionForbidden(attrs, `could not determine node from user ${q(attrs.user.name)}`);
  }
  switch (`${attrs.resource.group}/${attrs.resource.resource}`) {
    case '/pods':
      return admitPods(nodeName, attrs, deps);
    case '/nodes':
      return admitNode(nodeName, attrs);
    case '/persistentvolumeclaims':
      return admitClaimStatus(nodeName, attrs);
    case '/serviceaccounts':
      return admitServiceAccountToken(nodeName, attrs, deps);
    case 'coordination.k8s.io/leases':
      return admitOwnNamed(nodeName, attrs, 'node lease', NODE_LEASE_NAMESPACE);
    case 'storage.k8s.io/csinodes':
      return admitOwnNamed(nodeName, attrs, 'CSINode');
    default:
      return;
  }
}

function nodeParts(v: unknown): { labels: Record<string, string>; spec: Record<string, unknown> } {
  const o = obj(v);
  return { labels: strings(obj(o?.['metadata'])?.['labels']), spec: obj(o?.['spec']) ?? {} };
}

function admitNode(node: string, attrs: AdmissionAttributes): void {
  if (attrs.name !== node) {
    throw admissionForbidden(attrs, `node ${q(node)} is not allowed to modify node ${q(attrs.name)}`);
  }
  if (attrs.operation === 'CREATE') {
    const { labels, spec } = nodeParts(attrs.object);
    if (spec['configSource'] != null) {
      // "create pods" is what the real server says here.
      throw admissionForbidden(
        attrs,
        `node ${q(node)} is not allowed to create pods with a non-nil configSource`,
      );
    }
    const forbidden = forbiddenLabelChanges(labels, {});
    if (forbidden.length > 0) {
      throw admissionForbidden(
        attrs,
        `node ${q(node)} is not allowed to set the following labels: ${forbidden.join(', ')}`,
      );
    }
  }
  if (attrs.operation === 'UPDATE') {
    const now = nodeParts(attrs.object);
    const before = nodeParts(attrs.oldObject);
    if (
      now.spec['configSource'] != null &&
      !sameJson(now.spec['configSource'], before.spec['configSource'])
    ) {
      throw admissionForbidden(
        attrs,
        `node ${q(node)} is not allowed to update configSource to a new non-nil configSource`,
      );
    }
    if (!sameJson(now.spec['taints'], before.spec['taints'])) {
      throw admissionForbidden(attrs, `node ${q(node)} is not allowed to modify taints`);
    }
    const forbidden = forbiddenLabelChanges(now.labels, before.labels);
    if (forbidden.length > 0) {
      throw admissionForbidden(attrs, `is not allowed to modify labels: ${forbidden.join(', ')}`);
    }
  }
}

/** The status fields a node may change on a claim (kube also clears the allocation fields when expansion recovery is on). */
function claimWithoutNodeFields(v: unknown): unknown {
  const o = obj(v) ?? {};
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = obj(o['metadata']) ?? {};
  const {
    capacity: _c,
    conditions: _co,
    allocatedResources: _ar,
    allocatedResourceStatuses: _as,
    ...status
  } = obj(o['status']) ?? {};
  return { ...o, metadata, status };
}

function admitClaimStatus(node: string, attrs: AdmissionAttributes): void {
  if (attrs.subresource !== 'status') throw admissionForbidden(attrs, 'may only update PVC status');
  if (attrs.operation !== 'UPDATE')
    throw admissionForbidden(attrs, `unexpected operation ${q(attrs.operation)}`);
  if (!sameJson(claimWithoutNodeFields(attrs.object), claimWithoutNodeFields(attrs.oldObject))) {
    // kube appends a Go cmp.Diff of the two claims, which has no faithful equivalent here.
    throw admissionForbidden(
      attrs,
      `node ${q(node)} is not allowed to update fields other than status.capacity and status.conditions`,
    );
  }
}

/** A node may ask for a token only bound to a pod that runs on it. */
function admitServiceAccountToken(node: string, attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  if (attrs.operation !== 'CREATE' || attrs.subresource !== 'token') return;
  const ref = obj(obj(obj(attrs.object)?.['spec'])?.['boundObjectRef']);
  if (!ref || str(ref['apiVersion']) !== 'v1' || str(ref['kind']) !== 'Pod' || str(ref['name']) === '') {
    throw admissionForbidden(attrs, 'node requested token not bound to a pod');
  }
  const uid = str(ref['uid']);
  if (uid === '') throw admissionForbidden(attrs, 'node requested token with a pod binding without a uid');
  const pod = deps.pods.get(attrs.namespace, str(ref['name']));
  if (!pod) throw notFound({ group: '', resource: 'pod' }, str(ref['name']));
  if (str(pod.metadata?.['uid']) !== uid) {
    throw admissionForbidden(
      attrs,
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if (str(obj(obj(pod)?.['spec'])?.['nodeName']) !== node) {
    throw admissionForbidden(attrs, 'node requested token bound to a pod scheduled on a different node');
  }
}

/** Leases and CSINodes: only the object named after the node (and leases only in their namespace). */
function admitOwnNamed(node: string, attrs: AdmissionAttributes, what: string, namespace?: string): void {
  if (namespace !== undefined && attrs.namespace !== namespace) {
    throw admissionForbidden(attrs, `can only access leases in the ${q(namespace)} system namespace`);
  }
  // On a create the name is the object's (the request may not carry one yet).
  const name = attrs.operation === 'CREATE' ? str(attrs.object?.metadata?.['name']) : attrs.name;
  if (name !== node) {
    throw admissionForbidden(attrs, `can only access ${what} with the same name as the requesting node`);
  }
}
