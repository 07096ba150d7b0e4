import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { generateCA, generateLeaf } from './x509-gen.js';

/**
 * Generates a CA and a serving certificate, makes a TLS context of them and throws all of it
 * away: for a daemon with time to spare before it knows its arguments (apps/keel's launcher),
 * whose start-up then generates its own. The first run of each costs several times a later one
 * (@peculiar/x509's ASN.1 schemas and the functions' type feedback, Web Crypto's and OpenSSL's
 * set-up, Node's store of root certificates that a context with a CA copies, net.isIPv6's
 * pattern), and on a daemon's start-up that first run is in the way of serving.
 */
export async function prepareSelfSigned(): Promise<void> {
  const now = Date.now();
  const spec = { notBefore: new Date(now), notAfter: new Date(now + 3600_000) };
  const ca = await generateCA({ ...spec, commonName: 'keel-prepare-ca' });
  const leaf = await generateLeaf(ca, { ...spec, commonName: 'keel-prepare', hosts: ['localhost', '::1'] });
  createSecureContext({ ca: ca.certPem, cert: leaf.certPem, key: leaf.keyPem });
  isIP('::1');
}
