import { createHash, X509Certificate } from 'node:crypto';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { certificateNames, keyIdentifiers } from './cert-key.js';

/** Who a verified client certificate says the caller is (kube's x509 CommonNameUserConversion). */
export interface PeerIdentity {
  /** Subject CommonName. */
  readonly user: string;
  /** Subject Organization entries, in certificate order. */
  readonly groups: readonly string[];
  /** `X509SHA256=<hex sha256 of the leaf DER>`, kube's credential-id extra value. */
  readonly credentialId: string;
}

/** A certificate was presented but did not verify against the client CA: the request must get 401. */
export interface PeerIdentityError {
  readonly error: string;
}

/**
 * The identity proven by the client certificate on `socket`, when the listener was given a client
 * CA (`requestCert`): undefined when there is no certificate or its CN is empty ("not
 * authenticated by this method"), an error when verification failed.
 */
export function peerIdentity(socket: Socket): PeerIdentity | PeerIdentityError | undefined {
  if (!(socket instanceof TLSSocket)) return undefined;
  const peer = socket.getPeerCertificate();
  // Node returns {} (or null once the socket is gone) when the client sent no certificate.
  if (peer === null || peer.raw === undefined) return undefined;
  if (!socket.authorized) {
    return {
      error: `verifying certificate ${certificateIdentifier(peer.raw)} failed: ${verifyError(socket, peer.raw)}`,
    };
  }
  const names = certificateNames(peer.raw);
  if (names.commonName === '') return undefined;
  return {
    user: names.commonName,
    groups: names.organizations,
    credentialId: `X509SHA256=${createHash('sha256').update(peer.raw).digest('hex')}`,
  };
}

/** Go's certificateIdentifier: `SN=<decimal>, SKID=<AB:CD…>, AKID=<AB:CD…>`. */
function certificateIdentifier(der: Buffer): string {
  const cert = new X509Certificate(der);
  const ids = keyIdentifiers(der);
  return `SN=${BigInt(`0x${cert.serialNumber}`).toString()}, SKID=${ids.subject}, AKID=${ids.authority}`;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
]);

/** OpenSSL's verify code in Go's crypto/x509 words, which kube's 401 logs show. */
function verifyError(socket: TLSSocket, der: Buffer): string {
  // At run time authorizationError is the OpenSSL code as a string, although typed as an Error.
  const code = String(socket.authorizationError);
  if (UNKNOWN_AUTHORITY.has(code)) return 'x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    const cert = new X509Certificate(der);
    const now = new Date();
    const expired = code === 'CERT_HAS_EXPIRED';
    const bound = new Date(expired ? cert.validTo : cert.validFrom);
    return (
      'x509: certificate has expired or is not yet valid: current time ' +
      `${goTime(now)} is ${expired ? 'after' : 'before'} ${goTime(bound)}`
    );
  }
  if (code === 'INVALID_PURPOSE') return 'x509: certificate specifies an incompatible key usage';
  return `x509: ${code}`;
}

function goTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
