/**
 * The reference's default Roles and RoleBindings (testdata/namespace-roles.yaml and
 * namespace-role-bindings.yaml, v1.30 era). What it creates in `kube-system` lives in
 * `platform-system`, what it creates in `kube-public` in `platform-public`; service accounts of
 * `kube-system` are those of `platform-system`. The leader-locking roles are named after the real
 * components, as kubeadm's and the components' own documentation expect.
 */
import type { Role, RoleBinding } from '../types.js';
import {
  EVENTS_RULE,
  PUBLIC_NAMESPACE,
  READ,
  REFERENCE_SYSTEM_NAMESPACE,
  role,
  roleBinding,
  rule,
  serviceAccount,
  SYSTEM_NAMESPACE,
  user,
} from './metadata.js';

const LEADER_LOCKING = [
  rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
];

export const NAMESPACE_ROLES: readonly Role[] = [
  role(PUBLIC_NAMESPACE, 'system:controller:bootstrap-signer', [
    rule(READ, [''], ['configmaps']),
    rule(['update'], [''], ['configmaps'], ['cluster-info']),
    EVENTS_RULE,
  ]),
  role(SYSTEM_NAMESPACE, 'extension-apiserver-authentication-reader', [
    rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication']),
  ]),
  // The same reader in kube-system, where unmodified reference components look for the ConfigMap.
  role(REFERENCE_SYSTEM_NAMESPACE, 'extension-apiserver-authentication-reader', [
    rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication']),
  ]),
  role(SYSTEM_NAMESPACE, 'system::leader-locking-kube-controller-manager', LEADER_LOCKING),
  role(SYSTEM_NAMESPACE, 'system::leader-locking-kube-scheduler', LEADER_LOCKING),
  role(SYSTEM_NAMESPACE, 'system:controller:bootstrap-signer', [rule(READ, [''], ['secrets'])]),
  role(SYSTEM_NAMESPACE, 'system:controller:cloud-provider', [
    rule(['create', 'get', 'list', 'watch'], [''], ['configmaps']),
  ]),
  role(SYSTEM_NAMESPACE, 'system:controller:token-cleaner', [
    rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']),
    EVENTS_RULE,
  ]),
];

export const NAMESPACE_ROLE_BINDINGS: readonly RoleBinding[] = [
  roleBinding(PUBLIC_NAMESPACE, 'system:controller:bootstrap-signer', [serviceAccount('bootstrap-signer')], {
    kind: 'Role',
    name: 'system:controller:bootstrap-signer',
  }),
  roleBinding(
    SYSTEM_NAMESPACE,
    'system::extension-apiserver-authentication-reader',
    [user('system:kube-controller-manager'), user('system:kube-scheduler')],
    { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
  ),
  roleBinding(
    REFERENCE_SYSTEM_NAMESPACE,
    'system::extension-apiserver-authentication-reader',
    [user('system:kube-controller-manager'), user('system:kube-scheduler')],
    { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
  ),
  roleBinding(
    SYSTEM_NAMESPACE,
    'system::leader-locking-kube-controller-manager',
    [
      user('system:kube-controller-manager'),
      serviceAccount('kube-controller-manager'),
      serviceAccount('leader-election-controller'),
    ],
    { kind: 'Role', name: 'system::leader-locking-kube-controller-manager' },
  ),
  roleBinding(
    SYSTEM_NAMESPACE,
    'system::leader-locking-kube-scheduler',
    [user('system:kube-scheduler'), serviceAccount('kube-scheduler')],
    { kind: 'Role', name: 'system::leader-locking-kube-scheduler' },
  ),
  roleBinding(SYSTEM_NAMESPACE, 'system:controller:bootstrap-signer', [serviceAccount('bootstrap-signer')], {
    kind: 'Role',
    name: 'system:controller:bootstrap-signer',
  }),
  roleBinding(SYSTEM_NAMESPACE, 'system:controller:cloud-provider', [serviceAccount('cloud-provider')], {
    kind: 'Role',
    name: 'system:controller:cloud-provider',
  }),
  roleBinding(SYSTEM_NAMESPACE, 'system:controller:token-cleaner', [serviceAccount('token-cleaner')], {
    kind: 'Role',
    name: 'system:controller:token-cleaner',
  }),
];
