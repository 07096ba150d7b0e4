import { timingSafeEqual } from 'node:crypto';
import { secretData, type ServiceAccountTokenGetter } from './token-getter.js';
import type { AuthenticationResult, TokenAuthenticator } from './types.js';

/** Where bootstrap token Secrets live (kube-system upstream). */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'platform-system';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const GROUP_PATTERN = '\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z';
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** subtle.ConstantTimeCompare: lengths may differ (that much leaks, as in Go). */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** bootstrapsecretutil.GetGroups: the default group plus the extra ones, sorted and unique. */
function groupsOf(extra: string): string[] | undefined {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  for (const g of extra.split(',')) {
    const name = g.trim();
    if (name === '') continue;
    if (!GROUP.test(name)) return undefined;
    groups.add(name);
  }
  return [...groups].sort();
}

/** An `expiration` that does not parse counts as expired, as upstream. */
function expired(expiration: string, now: Date): boolean {
  if (expiration === '') return false;
  const at = Date.parse(expiration);
  return Number.isNaN(at) || at - now.getTime() <= 0;
}

/**
 * Bootstrap tokens (`<id>.<secret>`, kube's bootstrap.TokenAuthenticator): the Secret
 * `bootstrap-token-<id>` of type bootstrap.kubernetes.io/token in platform-system must hold the
 * same token-secret and token-id, be unexpired and allow authentication. A token that fails any
 * check is not this authenticator's (undefined), so with no other taker the request is a 401.
 */
export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly getter: ServiceAccountTokenGetter,
    private readonly now: () => Date = () => new Date(),
    private readonly log: (msg: string) => void = () => undefined,
  ) {}

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const m = TOKEN.exec(token);
    if (!m) return undefined;
    const [, id = '', tokenSecret = ''] = m;
    const name = `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`;
    let secret;
    try {
      secret = await this.getter.getSecret(BOOTSTRAP_TOKEN_NAMESPACE, name);
    } catch (err) {
      // Upstream a lister error other than NotFound fails the token.
      return { error: err instanceof Error ? err.message : String(err) };
    }
    const reject = (why: string): undefined => {
      this.log(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} ${why}`);
      return undefined;
    };
    if (!secret) return undefined;
    if (secret.metadata.deletionTimestamp !== undefined) return reject('is deleted and awaiting removal');
    if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) {
      return reject(`has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`);
    }
    if (!sameSecret(secretData(secret, 'token-secret'), tokenSecret)) {
      return reject('has invalid value for key token-secret.');
    }
    if (secretData(secret, 'token-id') !== id) return reject('has invalid value for key token-id.');
    if (expired(secretData(secret, 'expiration'), this.now())) return reject('has expired.');
    if (secretData(secret, 'usage-bootstrap-authentication') !== 'true') {
      return reject('not marked usage-bootstrap-authentication=true.');
    }
    const groups = groupsOf(secretData(secret, 'auth-extra-groups'));
    if (!groups) return reject(`has invalid value for key auth-extra-groups (must match ${GROUP_PATTERN}).`);
    return { user: { name: `${BOOTSTRAP_USER_PREFIX}${id}`, uid: '', groups, extra: {} } };
  }
}
