import { writeFileSync } from 'node:fs';
import { ADMIN_TOKEN } from './api-server.js';

/**
 * Writes a kubeconfig (JSON, which is YAML) at `path` for `server`, trusting `ca`, with a bearer
 * token (the admin one by default): what kubectl, the clients and keel-scheduler's
 * --connection-config read. Returns `path`.
 */
export function writeKubeconfig(
  path: string,
  server: string,
  ca: string,
  token: string = ADMIN_TOKEN,
): string {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'keel',
    contexts: [{ name: 'keel', context: { cluster: 'keel', user: 'user' } }],
    clusters: [
      { name: 'keel', cluster: { server, 'certificate-authority-data': Buffer.from(ca).toString('base64') } },
    ],
    users: [{ name: 'user', user: { token } }],
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
