import {
  constants,
  generateKeyPairSync,
  randomBytes,
  sign as cryptoSign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCert } from './pki.js';

/** A signing key of the test issuer. */
export interface IssuerKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: KeyObject;
  readonly jwk: JsonWebKey;
}

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * A compact JWS made with node:crypto alone, so tests control every header field and claim
 * (`alg: none` and mismatched algorithms included) independently of the verifier under test.
 */
export function signToken(
  claims: object,
  key: IssuerKey | undefined,
  header: Record<string, unknown> = {},
): string {
  const alg = typeof header['alg'] === 'string' ? header['alg'] : (key?.alg ?? 'none');
  const input = `${b64({ alg, typ: 'JWT', ...(key ? { kid: key.kid } : {}), ...header })}.${b64(claims)}`;
  if (alg === 'none' || key === undefined) return `${input}.`;
  const hash = `sha${alg.slice(2)}`;
  let sig: Buffer;
  if (alg.startsWith('RS')) sig = cryptoSign(hash, Buffer.from(input), key.privateKey);
  else if (alg.startsWith('PS')) {
    sig = cryptoSign(hash, Buffer.from(input), {
      key: key.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: Number(alg.slice(2)) / 8,
    });
  } else sig = cryptoSign(hash, Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

const CURVES: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/**
 * An OpenID provider on 127.0.0.1 over HTTPS: the discovery document and the JWKS it names, keys
 * the test adds and removes (rotation), request counts, and a discovery issuer the test may
 * falsify. Start it on a chosen port to bring an issuer up after the API server.
 */
export class TestOIDCIssuer {
  readonly keys: IssuerKey[] = [];
  discoveryRequests = 0;
  jwksRequests = 0;
  /** When set, the discovery document names this issuer instead of the real URL. */
  advertisedIssuer: string | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(serving: TestCert, opts: { port?: number } = {}): Promise<TestOIDCIssuer> {
    const holder: { issuer?: TestOIDCIssuer } = {};
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      const issuer = holder.issuer;
      if (issuer === undefined) return void res.writeHead(503).end();
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        issuer.discoveryRequests++;
        res.end(
          JSON.stringify({
            issuer: issuer.advertisedIssuer ?? issuer.url,
            jwks_uri: `${issuer.url}/keys`,
            id_token_signing_alg_values_supported: ['RS256', 'ES256'],
          }),
        );
      } else if (req.url === '/keys') {
        issuer.jwksRequests++;
        res.end(JSON.stringify({ keys: issuer.keys.map((k) => k.jwk) }));
      } else {
        res.writeHead(404).end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    holder.issuer = new TestOIDCIssuer(server, (server.address() as AddressInfo).port);
    return holder.issuer;
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** Makes a key; it is published in the JWKS unless `publish` is false. */
  addKey(alg = 'RS256', publish = true): IssuerKey {
    const { privateKey, publicKey } = alg.startsWith('ES')
      ? generateKeyPairSync('ec', { namedCurve: CURVES[alg] ?? 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomBytes(6).toString('hex');
    const key = {
      kid,
      alg,
      privateKey,
      jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' },
    };
    if (publish) this.keys.push(key);
    return key;
  }

  /** Takes a key out of the JWKS (the end of a rotation). */
  unpublish(key: IssuerKey): void {
    const i = this.keys.indexOf(key);
    if (i >= 0) this.keys.splice(i, 1);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
