import { writeFileSync } from 'node:fs';
import { ADMIN_TOKEN } from './api-server.js';

/** A client certificate and its key as PEM text. */
export interface ClientCertCredential {
  readonly certPem: string;
  readonly keyPem: string;
}

/**
 * Writes a kubeconfig (JSON, which is YAML) at `path` for `server`, trusting `ca`, with a bearer
 * token (the admin one by default) or a client certificate: what kubectl, the clients and
 * keel-scheduler's --connection-config read. Returns `path`.
 */
export function writeKubeconfig(
  path: string,
  server: string,
  ca: string,
  credential: string | ClientCertCredential = ADMIN_TOKEN,
): string {
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  const user =
    typeof credential === 'string'
      ? { token: credential }
      : { 'client-certificate-data': b64(credential.certPem), 'client-key-data': b64(credential.keyPem) };
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'keel',
    contexts: [{ name: 'keel', context: { cluster: 'keel', user: 'user' } }],
    clusters: [{ name: 'keel', cluster: { server, 'certificate-authority-data': b64(ca) } }],
    users: [{ name: 'user', user }],
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
