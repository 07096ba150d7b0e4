/**
 * The one thing users change to point their tools at Keel: a connection-config (kubeconfig)
 * naming the server, its CA and a bearer token. Written to a temporary directory per server,
 * never to the user's own file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

export interface ClientConfig {
  /** Directory for the kubeconfig files, manifests and kubectl's cache. */
  readonly dir: string;
  readonly server: string;
  readonly caFile: string;
  /** The kubeconfig with the admin token. */
  readonly kubeconfig: string;
  /** The same cluster with a token the server does not know. */
  readonly badKubeconfig: string;
}

function kubeconfigText(server: string, caFile: string, token: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: keel
  cluster:
    server: ${server}
    certificate-authority: ${caFile}
users:
- name: keel-user
  user:
    token: ${token}
contexts:
- name: keel
  context:
    cluster: keel
    user: keel-user
    namespace: default
current-context: keel
`;
}

/** Writes the kubeconfigs for a started server. */
export function clientConfig(server: TestApiServer): ClientConfig {
  const dir = mkdtempSync(join(tmpdir(), 'keel-clients-'));
  const caFile = join(server.certDir, 'certs', 'ca.crt');
  const kubeconfig = join(dir, 'kubeconfig');
  const badKubeconfig = join(dir, 'kubeconfig-bad-token');
  writeFileSync(kubeconfig, kubeconfigText(server.url, caFile, ADMIN_TOKEN));
  writeFileSync(badKubeconfig, kubeconfigText(server.url, caFile, 'not-a-known-token'));
  return { dir, server: server.url, caFile, kubeconfig, badKubeconfig };
}

/** Writes a manifest into the config's directory and returns its path. */
export function writeManifest(config: ClientConfig, name: string, text: string): string {
  const file = join(config.dir, name);
  writeFileSync(file, text);
  return file;
}

/** Writes a kubeconfig for the same cluster with another bearer token and returns its path. */
export function tokenKubeconfig(config: ClientConfig, name: string, token: string): string {
  const file = join(config.dir, `kubeconfig-${name}`);
  writeFileSync(file, kubeconfigText(config.server, config.caFile, token));
  return file;
}
