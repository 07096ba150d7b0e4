// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API at load.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

/**
 * ECDSA P-256 rather than kube's RSA-2048: generating the pair takes ~20 ms instead of ~100 ms per RSA
 * key, and every TLS client the daemons meet speaks ECDHE-ECDSA.
 */
const ALG: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = {
  name: 'ECDSA',
  namedCurve: 'P-256',
  hash: 'SHA-256',
};

/** A freshly minted certificate and its key, both PEM with a trailing newline. */
export interface GeneratedCert {
  readonly certPem: string;
  readonly keyPem: string;
  /** Kept so the certificate can sign others; never leaves the process. */
  readonly keys: webcrypto.CryptoKeyPair;
  /** Its subject, the issuer of what it signs (so that signing need not parse the PEM again). */
  readonly subject: string;
}

export interface CertSpec {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  /** DNS names and IP addresses, sorted into the matching SAN kinds. */
  readonly hosts?: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Which extended key usage the leaf carries; a CA carries none. */
  readonly usage?: 'server' | 'client' | 'both';
}

/** A self-signed CA certificate (kube: certutil.NewSelfSignedCACert). */
export async function generateCA(spec: CertSpec): Promise<GeneratedCert> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: subject(spec),
    keys,
    notBefore: spec.notBefore,
    notAfter: spec.notAfter,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign |
          x509.KeyUsageFlags.digitalSignature |
          x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: pem(cert), keyPem: await keyPem(keys), keys, subject: cert.subject };
}

/** A certificate signed by `ca` (kube: the serving half of GenerateSelfSignedCertKeyWithFixtures). */
export async function generateLeaf(ca: GeneratedCert, spec: CertSpec): Promise<GeneratedCert> {
  const keys = await newKeys();
  const usage = spec.usage ?? 'server';
  const ekus = [
    ...(usage === 'client' ? [] : [x509.ExtendedKeyUsage.serverAuth]),
    ...(usage === 'server' ? [] : [x509.ExtendedKeyUsage.clientAuth]),
  ];
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension(ekus),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
  ];
  const hosts = spec.hosts ?? [];
  if (hosts.length > 0) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        hosts.map((h) =>
          isIP(h) !== 0 ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h },
        ),
      ),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    subject: subject(spec),
    issuer: ca.subject,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    notBefore: spec.notBefore,
    notAfter: spec.notAfter,
    signingAlgorithm: ALG,
    extensions,
  });
  return { certPem: pem(cert), keyPem: await keyPem(keys), keys, subject: cert.subject };
}

function newKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
}

function subject(spec: CertSpec): x509.JsonName {
  return [{ CN: [spec.commonName] }, ...(spec.organizations ?? []).map((o) => ({ O: [o] }))];
}

// OpenSSL rejects a PEM block whose END line has no newline once blocks are concatenated.
function pem(cert: x509.X509Certificate): string {
  return cert.toString('pem') + '\n';
}

async function keyPem(keys: webcrypto.CryptoKeyPair): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return x509.PemConverter.encode(der, 'PRIVATE KEY') + '\n';
}
