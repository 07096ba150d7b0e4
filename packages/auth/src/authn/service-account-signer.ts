import { createHash, createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import jwt from 'jsonwebtoken';
import { ConfigError, fileErrorText } from '../config-error.js';

/** The JOSE algorithm kube signs with for a key: RS256, or ES256/384/512 by the curve. */
export function signingAlgorithm(key: KeyObject): 'RS256' | 'ES256' | 'ES384' | 'ES512' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error('unknown private key curve, must be 256, 384, or 521');
  }
  throw new Error('unknown private key type, must be RSA or ECDSA');
}

/** kube's keyIDFromPublicKey: the unpadded base64url SHA-256 of the PKIX (SPKI) DER encoding. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** What signs issued tokens: --service-account-signing-key-file and the first issuer. */
export class ServiceAccountTokenIssuer {
  readonly algorithm: ReturnType<typeof signingAlgorithm>;
  readonly keyId: string;

  constructor(
    readonly issuer: string,
    private readonly privateKey: KeyObject,
  ) {
    this.algorithm = signingAlgorithm(privateKey);
    this.keyId = keyIdOf(createPublicKey(privateKey));
  }

  /** Signs the claims with `iss` set; the header is `{"alg","kid"}` as go-jose writes it. */
  generateToken(claims: Record<string, unknown>): string {
    return jwt.sign(sortKeys({ ...claims, iss: this.issuer }), this.privateKey, {
      algorithm: this.algorithm,
      keyid: this.keyId,
      // go-jose writes no `typ`; jsonwebtoken drops an undefined one.
      header: { alg: this.algorithm, typ: undefined },
    });
  }
}

/** go-jose merges claims through a map, so every level comes out in sorted key order. */
function sortKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = value[k];
    out[k] =
      typeof v === 'object' && v !== null && !Array.isArray(v) ? sortKeys(v as Record<string, unknown>) : v;
  }
  return out;
}

/** Reads --service-account-signing-key-file (an RSA or ECDSA private key); errors are one line. */
export function loadSigningKey(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`failed to parse service-account-issuer-key-file: ${fileErrorText(err, file)}`);
  }
  try {
    const key = createPrivateKey(pem);
    signingAlgorithm(key);
    return key;
  } catch (err) {
    const why =
      err instanceof Error && err.message.startsWith('unknown')
        ? err.message
        : 'data does not contain a valid RSA or ECDSA private key';
    throw new ConfigError(`failed to parse service-account-issuer-key-file: ${why}`);
  }
}

interface Ref {
  readonly name: string;
  readonly uid: string;
}

/** What a bound token is issued for (kube's token.Claims inputs). */
export interface BoundTokenSubject {
  readonly namespace: string;
  readonly serviceAccount: Ref;
  readonly pod?: Ref;
  readonly secret?: Ref;
  readonly node?: Ref;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** Non-zero for an extended pod-bound token: the requested lifetime, after which use is audited. */
  readonly warnAfterSeconds: number;
  readonly now: Date;
}

/** kube's ref: both members omitempty. */
const ref = (r: Ref): Record<string, string> => ({
  ...(r.name !== '' ? { name: r.name } : {}),
  ...(r.uid !== '' ? { uid: r.uid } : {}),
});

/** token.Claims: the registered claims and the private `kubernetes.io` claim of a bound token. */
export function boundTokenClaims(s: BoundTokenSubject): Record<string, unknown> {
  const now = Math.floor(s.now.getTime() / 1000);
  const k: Record<string, unknown> = {
    namespace: s.namespace,
    serviceaccount: ref(s.serviceAccount),
  };
  if (s.pod) {
    k.pod = ref(s.pod);
    if (s.node) k.node = ref(s.node);
  } else if (s.secret) {
    k.secret = ref(s.secret);
  } else if (s.node) {
    k.node = ref(s.node);
  }
  if (s.warnAfterSeconds !== 0) k.warnafter = now + s.warnAfterSeconds;
  return {
    aud: [...s.audiences],
    exp: now + s.expirationSeconds,
    iat: now,
    jti: randomUUID(),
    'kubernetes.io': k,
    nbf: now,
    sub: `system:serviceaccount:${s.namespace}:${s.serviceAccount.name}`,
  };
}
