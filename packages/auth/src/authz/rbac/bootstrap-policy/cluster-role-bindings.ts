/**
 * The reference's default ClusterRoleBindings (its golden file testdata/cluster-role-bindings.yaml,
 * v1.30 era), in its order. User and group names stay the real ones so real components' identities
 * (system:kube-scheduler, system:nodes, ...) get their roles; the kube-dns service account lives in
 * `platform-system`.
 */
import type { ClusterRoleBinding } from '../types.js';
import { clusterRoleBinding, group, serviceAccount, user } from './metadata.js';

export const CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', [group('system:masters')]),
  clusterRoleBinding('system:basic-user', [group('system:authenticated')]),
  clusterRoleBinding('system:discovery', [group('system:authenticated')]),
  clusterRoleBinding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
  clusterRoleBinding('system:kube-dns', [serviceAccount('kube-dns')]),
  clusterRoleBinding('system:kube-scheduler', [user('system:kube-scheduler')]),
  clusterRoleBinding('system:monitoring', [group('system:monitoring')]),
  // Without subjects, as in the reference: nodes get their access from the Node authorizer.
  clusterRoleBinding('system:node', []),
  clusterRoleBinding('system:node-proxier', [user('system:kube-proxy')]),
  clusterRoleBinding('system:public-info-viewer', [
    group('system:authenticated'),
    group('system:unauthenticated'),
  ]),
  clusterRoleBinding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  clusterRoleBinding('system:volume-scheduler', [user('system:kube-scheduler')]),
];
