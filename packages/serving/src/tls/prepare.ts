import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { generateAhead } from './self-signed.js';

/**
 * Start-up work for a daemon with time to spare before it knows its arguments (apps/keel's
 * launcher): generates the self-signed serving pair it will most likely need, the one for `hosts`
 * (ensureSelfSignedCert takes it when asked for the same names; generateAhead), and makes a TLS
 * context of it. Besides moving that generation off the start-up, this pays the first run of each
 * step, which costs several times a later one (@peculiar/x509's ASN.1 schemas and the functions'
 * type feedback, Web Crypto's and OpenSSL's set-up, Node's store of root certificates that a
 * context with a CA copies, net.isIPv6's pattern), where it is in nobody's way.
 */
export async function prepareSelfSigned(hosts: readonly string[]): Promise<void> {
  const pair = await generateAhead(hosts);
  createSecureContext({ ca: pair.caPem, cert: pair.certPem, key: pair.keyPem });
  isIP('::1');
}
