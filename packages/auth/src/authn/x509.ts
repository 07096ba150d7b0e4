import type { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import { peerIdentity } from '@keel/serving';
import { certificateIdentifier, peerChain, verifyClientChain } from './cert-chain.js';
import {
  CREDENTIAL_ID_KEY,
  type AuthenticationRequest,
  type AuthenticationResult,
  type Authenticator,
} from './types.js';

/**
 * --client-ca-file: a client certificate that chains to one of `roots` is the user named by its
 * Subject CommonName, in its Organizations, with the `X509SHA256=<hex>` credential id. A certificate
 * that does not verify is an error (401); no certificate, or an empty CN, is "not this method".
 *
 * The listener's TLS `ca` holds every client CA (this bundle and the front-proxy one), so a verified
 * handshake only says the certificate chains to one of them; the chain is checked against this
 * bundle here, as kube's x509 authenticator does with its own verify options.
 */
export class X509Authenticator implements Authenticator {
  constructor(
    private readonly roots: readonly X509Certificate[],
    private readonly now: () => Date = () => new Date(),
  ) {}

  authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
    return Promise.resolve(this.check(req));
  }

  private check(req: AuthenticationRequest): AuthenticationResult {
    const chain = peerChain(req.socket);
    if (!chain || !(req.socket instanceof TLSSocket)) return undefined;
    const fromTls = peerIdentity(req.socket);
    if (fromTls !== undefined && 'error' in fromTls) return { error: fromTls.error };
    const failure = verifyClientChain(chain, this.roots, this.now());
    if (failure !== undefined) {
      return { error: `verifying certificate ${certificateIdentifier(chain.leaf)} failed: ${failure}` };
    }
    if (fromTls === undefined) return undefined; // empty CommonName
    return {
      user: {
        name: fromTls.user,
        uid: '',
        groups: [...fromTls.groups],
        extra: { [CREDENTIAL_ID_KEY]: [fromTls.credentialId] },
      },
    };
  }
}
