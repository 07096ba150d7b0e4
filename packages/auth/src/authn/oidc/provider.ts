import { get, type Agent } from 'node:https';
import type { JwksClient } from 'jwks-rsa';

/** kube's OIDC HTTP client gives every request to the issuer 30 seconds. */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Unknown `kid`s refetch the key set at most this often per minute, so a rotated key is picked up
 * at once while a stream of made-up kids cannot turn the API server against the issuer.
 */
const JWKS_REFRESHES_PER_MINUTE = 10;
/** How long a fetched key is trusted before the key set is asked again. */
const KEY_CACHE_MS = 10 * 60_000;

/** What the issuer's discovery document says, as far as token verification needs it. */
export interface ProviderMetadata {
  readonly issuer: string;
  readonly jwksURI: string;
}

/** GETs a JSON document; rejects with Go-like text for transport failures and non-200 answers. */
function getJson(url: string, agent: Agent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = get(
      url,
      { agent, timeout: REQUEST_TIMEOUT_MS, headers: { accept: 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) {
            reject(new Error(`${res.statusCode ?? 0} ${res.statusMessage ?? ''}: ${text.trim()}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch (err) {
            reject(new Error(`oidc: failed to decode provider discovery object: ${(err as Error).message}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`Get "${url}": timed out after ${REQUEST_TIMEOUT_MS}ms`)));
    req.on('error', (err) => reject(new Error(`Get "${url}": ${err.message}`)));
  });
}

/**
 * go-oidc's NewProvider: reads `<issuer>/.well-known/openid-configuration` and insists that the
 * document names the same issuer, so a token cannot be vouched for by another provider's keys.
 */
export async function discover(issuerURL: string, agent: Agent): Promise<ProviderMetadata> {
  const url = `${issuerURL.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const doc = await getJson(url, agent);
  const meta = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : {};
  const issuer = typeof meta['issuer'] === 'string' ? meta['issuer'] : '';
  if (issuer !== issuerURL) {
    throw new Error(
      `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuerURL)} got ${JSON.stringify(issuer)}`,
    );
  }
  const jwksURI = meta['jwks_uri'];
  if (typeof jwksURI !== 'string' || jwksURI === '')
    throw new Error('oidc: provider discovery object has no jwks_uri');
  return { issuer, jwksURI };
}

/**
 * The issuer's signing keys, fetched from its JWKS with jwks-rsa: keys are cached per `kid`, and
 * a `kid` not yet seen refetches the set (rate limited), which is how a rotated key is picked up
 * without a restart.
 */
export class RemoteKeySet {
  // jwks-rsa (and what it pulls in) loads at the first token to verify, not with the API server:
  // most servers have no OIDC issuer, and loading it was a noticeable part of every start-up.
  private client: Promise<JwksClient> | undefined;

  constructor(
    private readonly jwksURI: string,
    private readonly agent: Agent,
  ) {}

  /** The PEM public key for `kid` (any single key when the token names none). */
  async publicKey(kid: string | undefined): Promise<string> {
    this.client ??= import('jwks-rsa').then(
      ({ JwksClient }) =>
        new JwksClient({
          jwksUri: this.jwksURI,
          requestAgent: this.agent,
          timeout: REQUEST_TIMEOUT_MS,
          cache: true,
          cacheMaxEntries: 100,
          cacheMaxAge: KEY_CACHE_MS,
          rateLimit: true,
          jwksRequestsPerMinute: JWKS_REFRESHES_PER_MINUTE,
        }),
    );
    const key = await (await this.client).getSigningKey(kid);
    return key.getPublicKey();
  }
}
