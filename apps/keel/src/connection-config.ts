import { writeFileSync } from 'node:fs';

/**
 * Writes a connection-config (kubeconfig) for `server`, trusting `ca`, authenticating with
 * `token`: what kubectl, the official clients and the scheduler read. Mode 0600: it holds a token.
 */
export function writeConnectionConfig(
  file: string,
  server: string,
  ca: string,
  token: string,
  user = 'admin',
): void {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'keel', cluster: { server, 'certificate-authority-data': Buffer.from(ca).toString('base64') } },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: `${user}@keel`, context: { cluster: 'keel', user, namespace: 'default' } }],
    'current-context': `${user}@keel`,
  };
  writeFileSync(file, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
}
