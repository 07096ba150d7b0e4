/** NodeRestriction's rules for pods: mirror pods only, status and evictions of its own pods. */
import { notFound } from '@keel/apimachinery';
import { isMirrorPod, MIRROR_POD_ANNOTATION, podNodeName, podReferences, type PodLike } from '@keel/auth';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { ObjectLookup } from '../registry.js';
import { arr, obj, sameJson, str, strings } from './json.js';

export interface PodRuleDeps {
  readonly pods: ObjectLookup;
  readonly nodes: ObjectLookup;
}

/** The listers' NotFound names the kind in the singular (`pod "p" not found`). */
const notFoundPod = (name: string) => notFound({ group: '', resource: 'pod' }, name);
const notFoundNode = (name: string) => notFound({ group: '', resource: 'node' }, name);

function asPod(v: unknown): PodLike {
  const o = obj(v) ?? {};
  return { metadata: obj(o['metadata']) ?? {}, spec: obj(o['spec']) ?? {} };
}

export function admitPods(node: string, attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  switch (attrs.subresource) {
    case '':
      return admitPod(node, attrs, deps);
    case 'status':
      return admitPodStatus(node, attrs);
    case 'eviction':
      return admitPodEviction(node, attrs, deps);
    default:
      throw admissionForbidden(
        attrs,
        `unexpected pod subresource ${JSON.stringify(attrs.subresource)}, only 'status' and 'eviction' are allowed`,
      );
  }
}

function admitPod(node: string, attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  switch (attrs.operation) {
    case 'CREATE':
      return admitMirrorPodCreate(node, attrs, deps);
    case 'DELETE': {
      // The registry read the pod it is about to delete; kube reads its informer.
      if (!attrs.oldObject) throw notFoundPod(attrs.name);
      if (podNodeName(asPod(attrs.oldObject)) !== node) {
        throw admissionForbidden(
          attrs,
          `node ${q(node)} can only delete pods with spec.nodeName set to itself`,
        );
      }
      return;
    }
    default:
      throw admissionForbidden(
        attrs,
        `unexpected operation ${q(attrs.operation)}, node ${q(node)} can only create and delete mirror pods`,
      );
  }
}

function q(s: string): string {
  return JSON.stringify(s);
}

function admitMirrorPodCreate(node: string, attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  const refuse = (why: string) => admissionForbidden(attrs, why);
  const pod = asPod(attrs.object);
  if (!isMirrorPod(pod)) {
    throw refuse(
      `pod does not have ${q(MIRROR_POD_ANNOTATION)} annotation, node ${q(node)} can only create mirror pods`,
    );
  }
  if (podNodeName(pod) !== node)
    throw refuse(`node ${q(node)} can only create pods with spec.nodeName set to itself`);
  const owners = arr(obj(attrs.object?.metadata)?.['ownerReferences']);
  if (owners.length > 1) {
    throw refuse(`node ${q(node)} can only create pods with a single owner reference set to itself`);
  }
  const owner = owners[0];
  if (
    !owner ||
    str(owner['apiVersion']) !== 'v1' ||
    str(owner['kind']) !== 'Node' ||
    str(owner['name']) !== node
  ) {
    throw refuse(`node ${q(node)} can only create pods with an owner reference set to itself`);
  }
  if (owner['controller'] !== true) {
    throw refuse(`node ${q(node)} can only create pods with a controller owner reference set to itself`);
  }
  if (owner['blockOwnerDeletion'] === true) {
    throw refuse(`node ${q(node)} must not set blockOwnerDeletion on an owner reference`);
  }
  const current = deps.nodes.get('', node);
  if (!current) throw notFoundNode(node);
  const uid = str(current.metadata?.['uid']);
  if (str(owner['uid']) !== uid) {
    throw refuse(`node ${node} UID mismatch: expected ${str(owner['uid'])} got ${uid}`);
  }
  // A node must not gain access to other objects by naming them in a pod it makes.
  const refs = podReferences(pod);
  if (refs.serviceAccount !== '')
    throw refuse(`node ${q(node)} can not create pods that reference a service account`);
  if (refs.secrets.length > 0) throw refuse(`node ${q(node)} can not create pods that reference secrets`);
  if (refs.configMaps.length > 0)
    throw refuse(`node ${q(node)} can not create pods that reference configmaps`);
  if (refs.clusterTrustBundles) {
    throw refuse(`node ${q(node)} can not create pods that reference clustertrustbundles`);
  }
  const volumes = arr(obj(pod.spec)?.['volumes']);
  if (volumes.some((v) => obj(v['persistentVolumeClaim']))) {
    throw refuse(`node ${q(node)} can not create pods that reference persistentvolumeclaims`);
  }
}

function claimStatuses(pod: unknown): { name: string; claim: string | null }[] {
  return arr(obj(obj(pod)?.['status'])?.['resourceClaimStatuses']).map((s) => ({
    name: str(s['name']),
    claim: typeof s['resourceClaimName'] === 'string' ? s['resourceClaimName'] : null,
  }));
}

function admitPodStatus(node: string, attrs: AdmissionAttributes): void {
  if (attrs.operation !== 'UPDATE')
    throw admissionForbidden(attrs, `unexpected operation ${q(attrs.operation)}`);
  const before = attrs.oldObject;
  if (podNodeName(asPod(before)) !== node) {
    throw admissionForbidden(
      attrs,
      `node ${q(node)} can only update pod status for pods with spec.nodeName set to itself`,
    );
  }
  const labels = (o: unknown) => strings(obj(obj(o)?.['metadata'])?.['labels']);
  if (!sameJson(labels(attrs.object), labels(before))) {
    throw admissionForbidden(attrs, `node ${q(node)} cannot update labels through pod status`);
  }
  if (!sameJson(claimStatuses(attrs.object), claimStatuses(before))) {
    // "statues" is the real server's spelling.
    throw admissionForbidden(attrs, `node ${q(node)} cannot update resource claim statues`);
  }
}

function admitPodEviction(node: string, attrs: AdmissionAttributes, deps: PodRuleDeps): void {
  if (attrs.operation !== 'CREATE')
    throw admissionForbidden(attrs, `unexpected operation ${attrs.operation}`);
  const podName = attrs.name || str(obj(attrs.object?.metadata)?.['name']);
  if (podName === '') throw admissionForbidden(attrs, 'could not determine pod from request data');
  const pod = deps.pods.get(attrs.namespace, podName);
  if (!pod) throw notFoundPod(podName);
  if (podNodeName(asPod(pod)) !== node) {
    throw admissionForbidden(attrs, `node ${node} can only evict pods with spec.nodeName set to itself`);
  }
}
