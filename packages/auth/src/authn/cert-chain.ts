import { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import { readCABundle } from '@keel/serving';
import { ConfigError } from '../config-error.js';
import { keyIdentifiers } from './der.js';

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EKU = '2.5.29.37.0';
// Go's crypto/x509 gives up after this many candidate signatures; a cap keeps hostile chains cheap.
const MAX_SIGNATURE_CHECKS = 100;

/** The certificates of a PEM bundle. */
export function parseCertificates(pem: string): X509Certificate[] {
  return (pem.match(PEM_CERT) ?? []).map((block) => new X509Certificate(block));
}

/**
 * Reads the CA bundle a flag names (--client-ca-file, --requestheader-client-ca-file) as PEM text,
 * with serving's checks; any problem is a one-line ConfigError naming the flag.
 */
export function readCABundleFile(flag: string, path: string): string {
  try {
    const pem = readCABundle(flag, path);
    parseCertificates(pem); // a block the runtime cannot parse must fail now, not per request
    return pem;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ConfigError(message.startsWith(`--${flag}`) ? message : `--${flag}: ${path}: ${message}`);
  }
}

/** The certificates the TLS client sent: the leaf, then whatever else came with it. */
export interface PeerChain {
  readonly leaf: X509Certificate;
  readonly others: readonly X509Certificate[];
}

export function peerChain(socket: Socket | null | undefined): PeerChain | undefined {
  if (!(socket instanceof TLSSocket)) return undefined;
  const peer = socket.getPeerCertificate(true);
  // Node returns {} (or null once the socket is gone) when the client sent no certificate.
  if (peer === null || peer.raw === undefined) return undefined;
  const leaf = new X509Certificate(peer.raw);
  const others: X509Certificate[] = [];
  const seen = new Set([peer.raw.toString('base64')]);
  // A self-signed certificate is its own issuerCertificate, which ends the walk.
  for (let c = peer.issuerCertificate; c?.raw !== undefined; c = c.issuerCertificate) {
    const key = c.raw.toString('base64');
    if (seen.has(key)) break;
    seen.add(key);
    others.push(new X509Certificate(c.raw));
  }
  return { leaf, others };
}

function goTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function validityError(cert: X509Certificate, now: Date): string | undefined {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now < from) {
    return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is before ${goTime(from)}`;
  }
  if (now > to) {
    return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is after ${goTime(to)}`;
  }
  return undefined;
}

function allowsClientAuth(cert: X509Certificate): boolean {
  const ekus = cert.keyUsage as string[] | undefined; // node types this as string[] but it is undefined without the extension
  return ekus === undefined || ekus.length === 0 || ekus.includes(CLIENT_AUTH) || ekus.includes(ANY_EKU);
}

function issued(issuer: X509Certificate, cert: X509Certificate): boolean {
  // checkIssued reads "was this certificate issued by that one".
  return issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

/**
 * Go's `cert.Verify` with the given roots and the other presented certificates as intermediates,
 * for client authentication (ExtKeyUsageClientAuth): undefined when some chain ends in one of
 * `roots`, otherwise the error text in Go's words. The TLS layer has already checked the chain
 * against the union of every configured CA; this tells which bundle it belongs to.
 */
export function verifyClientChain(
  chain: PeerChain,
  roots: readonly X509Certificate[],
  now: Date = new Date(),
): string | undefined {
  const leafError = validityError(chain.leaf, now);
  if (leafError) return leafError;
  let budget = MAX_SIGNATURE_CHECKS;
  let timeError: string | undefined;
  const build = (cert: X509Certificate, path: X509Certificate[]): X509Certificate[] | undefined => {
    for (const root of roots) {
      if (root.raw.equals(cert.raw)) return path;
      if (budget-- <= 0) return undefined;
      if (issued(root, cert)) {
        const err = validityError(root, now);
        if (err === undefined) return [...path, root];
        timeError ??= err;
      }
    }
    if (path.length > 10) return undefined;
    for (const mid of chain.others) {
      if (path.some((p) => p.raw.equals(mid.raw))) continue;
      if (budget-- <= 0) return undefined;
      if (!issued(mid, cert)) continue;
      const err = validityError(mid, now);
      if (err !== undefined) {
        timeError ??= err;
        continue;
      }
      const found = build(mid, [...path, mid]);
      if (found) return found;
    }
    return undefined;
  };
  const found = build(chain.leaf, [chain.leaf]);
  if (!found) return timeError ?? 'x509: certificate signed by unknown authority';
  if (!found.every(allowsClientAuth)) return 'x509: certificate specifies an incompatible key usage';
  return undefined;
}

// Written like serving's peerIdentity errors, so both kinds of x509 failure read alike in the log.
function colonHex(bytes: Uint8Array): string {
  if (bytes.length === 0) return '<none>';
  return [...bytes].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(':');
}

/** Go's certificateIdentifier: `SN=<decimal>, SKID=<AB:CD…>, AKID=<AB:CD…>`. */
export function certificateIdentifier(cert: X509Certificate): string {
  const ids = keyIdentifiers(cert.raw);
  const serial = BigInt(`0x${cert.serialNumber}`).toString();
  return `SN=${serial}, SKID=${colonHex(ids.subject)}, AKID=${colonHex(ids.authority)}`;
}
