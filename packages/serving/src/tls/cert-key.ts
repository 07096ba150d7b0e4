import 'reflect-metadata';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';
import { fsErrorText } from '../errors.js';

/** A certificate chain (leaf first) and its private key, checked to belong together. */
export interface CertKeyPair {
  /** Every CERTIFICATE block of the input, leaf first, as the listener sends it. */
  readonly certPem: string;
  readonly keyPem: string;
  readonly leaf: X509Certificate;
  /** The certificates after the leaf (its CA chain), possibly none. */
  readonly chain: readonly X509Certificate[];
}

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The CERTIFICATE blocks of a PEM text, each normalised to end in a newline; other blocks are skipped, as Go does. */
export function splitCertificates(pem: string): string[] {
  return [...pem.matchAll(CERT_BLOCK)].map((m) => m[0] + '\n');
}

/**
 * Parses and pairs a certificate and key the way Go's tls.X509KeyPair does, with its error texts,
 * so that start-up errors read like the real daemons'.
 */
export function parseCertKeyPair(certPem: string, keyPem: string): CertKeyPair {
  const blocks = splitCertificates(certPem);
  if (blocks.length === 0) throw new Error('tls: failed to find any PEM data in certificate input');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyPem))
    throw new Error('tls: failed to find any PEM data in key input');
  let certs: X509Certificate[];
  try {
    certs = blocks.map((b) => new X509Certificate(b));
  } catch (err) {
    throw new Error(`tls: failed to parse certificate: ${errorMessage(err)}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch (err) {
    throw new Error(`tls: failed to parse private key: ${errorMessage(err)}`);
  }
  const [leaf, ...chain] = certs as [X509Certificate, ...X509Certificate[]];
  if (!leaf.checkPrivateKey(key)) throw new Error('tls: private key does not match public key');
  return { certPem: blocks.join(''), keyPem, leaf, chain };
}

/** Reads a pair of files; the error names the file that failed, in Go's words. */
export function readCertKeyFiles(certFile: string, keyFile: string): CertKeyPair {
  return parseCertKeyPair(readText(certFile), readText(keyFile));
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(fsErrorText(err, path));
  }
}

export interface CertificateNames {
  /** The last CN attribute (what Go's pkix.Name.CommonName keeps), or ''. */
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
}

/** The subject and SAN names of a certificate (PEM or DER). */
export function certificateNames(cert: string | Uint8Array): CertificateNames {
  const parsed = new x509.X509Certificate(typeof cert === 'string' ? cert : Uint8Array.from(cert));
  const cns = parsed.subjectName.getField('CN');
  const san = parsed.getExtension(x509.SubjectAlternativeNameExtension);
  const items = san?.names.toJSON() ?? [];
  return {
    commonName: cns[cns.length - 1] ?? '',
    organizations: parsed.subjectName.getField('O'),
    dnsNames: items.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: items.filter((n) => n.type === 'ip').map((n) => canonicalIP(n.value)),
  };
}

/** The key identifiers of a certificate in Go's `AB:CD` notation, `<none>` when absent (used in x509 errors). */
export function keyIdentifiers(der: Uint8Array): { subject: string; authority: string } {
  const parsed = new x509.X509Certificate(Uint8Array.from(der));
  const ski = parsed.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const aki = parsed.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
  return { subject: goHex(ski), authority: goHex(aki) };
}

function goHex(hex: string | undefined): string {
  if (hex === undefined || hex === '') return '<none>';
  return (hex.toUpperCase().match(/../g) ?? []).join(':');
}

/** One spelling per address, so `::1` and `0:0:0:0:0:0:0:1` compare equal. */
export function canonicalIP(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}

/** Whether the certificate's SANs name `host` (an IP or a DNS name; the CN is not looked at, as in Go ≥ 1.15). */
export function certificateCovers(leaf: X509Certificate, host: string): boolean {
  if (isIP(host) !== 0) return leaf.checkIP(host) !== undefined;
  return leaf.checkHost(host, { subject: 'never', wildcards: false }) !== undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
