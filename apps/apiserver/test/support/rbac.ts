/** Shared by the RBAC end-to-end tests: a token file with an admin and unprivileged users, object builders. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ADMIN_TOKEN, type ApiResponse } from '@keel/testing';
import { statusText } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-rbac-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  [
    `${ADMIN_TOKEN},admin,uid-admin,"system:masters"`,
    'bob-token,bob,uid-bob',
    'carol-token,carol,uid-carol,"dev"',
    'robot-token,system:serviceaccount:default:robot,uid-robot,"system:serviceaccounts,system:serviceaccounts:default"',
    'dave-token,dave,uid-dave',
    '',
  ].join('\n'),
);
export const RBAC_ARGS = ['--authorization-mode=RBAC', `--token-auth-file=${tokenFile}`];

export const G = 'rbac.authorization.k8s.io';
export const RBAC = `/apis/${G}/v1`;
export const PODS = '/api/v1/namespaces/default/pods';

export const forbidden = (message: string, details: Record<string, unknown>) =>
  statusText(403, 'Forbidden', message, details);

export const role = (name: string, rules: unknown[], namespace = 'default') => ({
  apiVersion: `${G}/v1`,
  kind: 'Role',
  metadata: { name, namespace },
  rules,
});
export const clusterRole = (name: string, rules: unknown[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
export const user = (name: string) => ({ kind: 'User', apiGroup: G, name });
export const roleBinding = (
  name: string,
  ref: [string, string],
  subjects: unknown[],
  namespace = 'default',
) => ({
  apiVersion: `${G}/v1`,
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: G, kind: ref[0], name: ref[1] },
  subjects,
});
export const clusterRoleBinding = (name: string, ref: string, subjects: unknown[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: ref },
  subjects,
});

export const unique = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;

/** Polls until `check` holds: bindings reach the authorizer through a watch, not at once. */
export async function eventually(
  fn: () => Promise<ApiResponse>,
  check: (r: ApiResponse) => boolean,
): Promise<ApiResponse> {
  let last: ApiResponse | undefined;
  for (let i = 0; i < 100; i++) {
    last = await fn();
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last as ApiResponse;
}

export async function created(p: Promise<ApiResponse>): Promise<void> {
  const r = await p;
  expect([r.status, r.text]).toEqual([201, expect.any(String)]);
}
