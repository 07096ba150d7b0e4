import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { unauthorized } from '@keel/apimachinery';
import {
  AnonymousAuthenticator,
  AuthenticatedGroupAdder,
  BearerTokenAuthenticator,
  CachedTokenAuthenticator,
  ConfigError,
  FallbackOnNoCredentials,
  forbiddenError,
  newAuthenticationContext,
  parseCertificates,
  PrivilegedGroupAuthorizer,
  RequestHeaderAuthenticator,
  stripCredentialHeaders,
  SUBJECT_ACCESS_REVIEWS_PATH,
  TOKEN_REVIEWS_PATH,
  UnionAuthenticator,
  UnionAuthorizer,
  warningHeaderValue,
  WebhookAuthorizer,
  WebhookTokenAuthenticator,
  X509Authenticator,
  type Attributes,
  type Authenticator,
  type Authorizer,
  type DelegatingAuthenticationConfig,
  type DelegatingAuthorizationConfig,
  type RequestHeaderSettings,
  type RetryBackoff,
} from '@keel/auth';
import { loadConnectionConfig, RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import { readCABundle } from '@keel/serving';
import { AUTHENTICATION_CONFIGMAP, lookupAuthentication, type LookupOutcome } from './auth-lookup.js';
import { AlwaysAllowPathsAuthorizer } from './always-allow-paths.js';
import { writeStatus } from './write-status.js';

export interface DelegatedAuthOptions {
  readonly logger: Logger;
  /** The clock for certificate validity; tests pin it. */
  readonly now?: () => Date;
  /** How failed reviews are retried; tests shorten it. */
  readonly backoff?: RetryBackoff;
  /** The review clients' User-Agent; default @keel/client's. */
  readonly userAgent?: string;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** client-go settings kube gives its delegated clients: high limits, as they gate every request. */
const DELEGATED_CLIENT = { qps: 200, burst: 400 } as const;

function connect(
  file: string,
  what: 'authentication' | 'authorization',
  userAgent: string | undefined,
): RestClient | undefined {
  if (file === '') return undefined;
  try {
    return new RestClient(loadConnectionConfig(file), {
      ...DELEGATED_CLIENT,
      ...(userAgent !== undefined ? { userAgent } : {}),
    });
  } catch (err) {
    throw new ConfigError(`failed to get delegated ${what} connection-config: ${errorText(err)}`);
  }
}

/** A CA bundle a flag names, read and parsed now so that a bad file fails start-up. */
function readBundle(flag: string, path: string): { pem: string; roots: X509Certificate[] } {
  const pem = readCABundle(flag, path);
  try {
    return { pem, roots: parseCertificates(pem) };
  } catch (err) {
    throw new ConfigError(`--${flag}: ${path}: ${errorText(err)}`);
  }
}

/** Certificates of a published PEM bundle, or undefined when it holds none the runtime can read. */
function certificatesOf(pem: string): X509Certificate[] | undefined {
  try {
    const certs = parseCertificates(pem);
    return certs.length > 0 ? certs : undefined;
  } catch {
    return undefined;
  }
}

interface AuthenticationChain {
  readonly authenticator: Authenticator;
  readonly clientCA: string | undefined;
}

/**
 * kube's DelegatingAuthenticationOptions.ApplyTo and DelegatingAuthenticatorConfig.New: the
 * front-proxy headers, then client certificates, then bearer tokens by TokenReview, the first user
 * winning and joining system:authenticated; requests without credentials are system:anonymous.
 * CAs not given by flags are looked up in the API server's authentication ConfigMap unless
 * --authentication-skip-lookup; a failed request-header lookup is fatal only with
 * --authentication-tolerate-lookup-failure=false.
 */
async function authenticationChain(
  authn: DelegatingAuthenticationConfig,
  client: RestClient | undefined,
  opts: DelegatedAuthOptions,
): Promise<AuthenticationChain> {
  const { logger } = opts;
  const now = opts.now ?? (() => new Date());
  const lookClientCA = authn.clientCAFile === '' && !authn.skipLookup;
  const lookRequestHeader = authn.requestHeader.clientCAFile === '' && !authn.skipLookup;
  let lookup: LookupOutcome | undefined;
  if (client !== undefined && (lookClientCA || lookRequestHeader))
    lookup = await lookupAuthentication(client);

  if (lookRequestHeader && lookup?.failure !== undefined) {
    if (!authn.tolerateLookupFailure) {
      throw new ConfigError(
        `unable to load configmap based request-header-client-ca-file: ${lookup.failure}`,
      );
    }
    logger.error('Error looking up in-cluster authentication configuration', { err: lookup.failure });
    logger.error(
      'Continuing without authentication configuration. This may treat all requests as anonymous.',
    );
    logger.error(
      'To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false',
    );
  }

  const authenticators: Authenticator[] = [];
  const bundles: string[] = [];
  let requestHeader: RequestHeaderSettings | undefined;
  if (authn.requestHeader.clientCAFile !== '') {
    const { pem, roots } = readBundle('requestheader-client-ca-file', authn.requestHeader.clientCAFile);
    bundles.push(pem);
    requestHeader = { ...authn.requestHeader, roots };
  } else if (lookRequestHeader && client === undefined) {
    logger.warning(
      `No authentication-connection-config provided in order to lookup requestheader-client-ca-file in ${AUTHENTICATION_CONFIGMAP}, so request-header client certificate authentication won't work.`,
    );
  } else if (lookup?.found?.requestHeader !== undefined) {
    const { caPem, ...headers } = lookup.found.requestHeader;
    const roots = certificatesOf(caPem);
    if (roots === undefined)
      logger.warning(`requestheader-client-ca-file in ${AUTHENTICATION_CONFIGMAP} holds no certificates`);
    else {
      bundles.push(caPem);
      requestHeader = { ...headers, roots };
    }
  }
  if (requestHeader !== undefined) authenticators.push(new RequestHeaderAuthenticator(requestHeader, now));

  if (authn.clientCAFile !== '') {
    const { pem, roots } = readBundle('client-ca-file', authn.clientCAFile);
    bundles.push(pem);
    authenticators.push(new X509Authenticator(roots, now));
  } else if (lookClientCA && client === undefined) {
    logger.warning(
      `No authentication-connection-config provided in order to lookup client-ca-file in ${AUTHENTICATION_CONFIGMAP}, so client certificate authentication won't work.`,
    );
  } else if (lookClientCA && lookup?.failure !== undefined) {
    logger.warning(
      `Unable to look up client-ca-file in ${AUTHENTICATION_CONFIGMAP}, so client certificate authentication won't work.`,
      { err: lookup.failure },
    );
  } else if (lookup?.found?.clientCA !== undefined) {
    const pem = lookup.found.clientCA;
    const roots = certificatesOf(pem);
    if (roots === undefined)
      logger.warning(`client-ca-file in ${AUTHENTICATION_CONFIGMAP} holds no certificates`);
    else {
      bundles.push(pem);
      authenticators.push(new X509Authenticator(roots, now));
    }
  }

  if (client !== undefined) {
    // As kube-scheduler: v1 reviews of the API server's own tokenreviews, no audiences.
    const reviews = new WebhookTokenAuthenticator(
      { client, path: TOKEN_REVIEWS_PATH },
      { logger, ...(opts.backoff ? { backoff: opts.backoff } : {}) },
    );
    authenticators.push(
      new BearerTokenAuthenticator(new CachedTokenAuthenticator(reviews, authn.cacheTTL.milliseconds)),
    );
  } else {
    logger.warning(
      'No authentication-connection-config provided, so bearer tokens are not verified (TokenReview) and requests presenting one are anonymous.',
    );
  }

  const clientCABundle = bundles.length > 0 ? bundles.join('') : undefined;
  if (authenticators.length === 0) {
    return {
      authenticator: authn.anonymous ? new AnonymousAuthenticator() : new UnionAuthenticator([]),
      clientCA: clientCABundle,
    };
  }
  const chain = new AuthenticatedGroupAdder(new UnionAuthenticator(authenticators));
  return {
    authenticator: authn.anonymous ? new FallbackOnNoCredentials(chain, new AnonymousAuthenticator()) : chain,
    clientCA: clientCABundle,
  };
}

/**
 * kube's DelegatingAuthorizationOptions.toAuthorizer: the always-allowed groups (system:masters),
 * then the always-allowed paths, then a SubjectAccessReview. Without a connection-config nothing
 * else is allowed.
 */
function authorizationChain(
  authz: DelegatingAuthorizationConfig,
  client: RestClient | undefined,
  opts: DelegatedAuthOptions,
): Authorizer {
  const authorizers: Authorizer[] = [];
  if (authz.alwaysAllowGroups.length > 0)
    authorizers.push(new PrivilegedGroupAuthorizer(authz.alwaysAllowGroups));
  if (authz.alwaysAllowPaths.length > 0)
    authorizers.push(new AlwaysAllowPathsAuthorizer(authz.alwaysAllowPaths));
  if (client !== undefined) {
    authorizers.push(
      new WebhookAuthorizer(
        { client, path: SUBJECT_ACCESS_REVIEWS_PATH },
        {
          allowTtlMs: authz.allowCacheTTL.milliseconds,
          denyTtlMs: authz.denyCacheTTL.milliseconds,
          logger: opts.logger,
          ...(opts.backoff ? { backoff: opts.backoff } : {}),
        },
      ),
    );
  } else {
    opts.logger.warning(
      "No authorization-connection-config provided, so SubjectAccessReview of authorization tokens won't work.",
    );
  }
  // With nothing in it the union has no opinion on anything: every request is a 403.
  return new UnionAuthorizer(authorizers);
}

/**
 * Who may call the scheduler's secure port, decided as kube's delegated authentication and
 * authorization do (k8s.io/apiserver DelegatingAuthenticationOptions and
 * DelegatingAuthorizationOptions): see authenticationChain and authorizationChain. Build it with
 * `create` (it may ask the API server for the client CAs) and give `clientCA` to the listener.
 */
export class DelegatedAuth {
  private constructor(
    private readonly authenticator: Authenticator,
    private readonly authorizer: Authorizer,
    /** The PEM bundle the listener requests client certificates with; undefined: none. */
    readonly clientCA: string | undefined,
    private readonly logger: Logger,
    private readonly clients: readonly RestClient[],
  ) {}

  /** Throws a one-line error (ConfigError, ServingError) for settings that cannot be used. */
  static async create(
    authn: DelegatingAuthenticationConfig,
    authz: DelegatingAuthorizationConfig,
    opts: DelegatedAuthOptions,
  ): Promise<DelegatedAuth> {
    const authnClient = connect(authn.remoteConnectionConfigFile, 'authentication', opts.userAgent);
    const authzClient = connect(authz.remoteConnectionConfigFile, 'authorization', opts.userAgent);
    const clients = [authnClient, authzClient].filter((c): c is RestClient => c !== undefined);
    try {
      const { authenticator, clientCA } = await authenticationChain(authn, authnClient, opts);
      const authorizer = authorizationChain(authz, authzClient, opts);
      return new DelegatedAuth(authenticator, authorizer, clientCA, opts.logger, clients);
    } catch (err) {
      await Promise.all(clients.map((c) => c.close()));
      throw err;
    }
  }

  /**
   * Authenticates and authorizes a request (kube's WithAuthentication and WithAuthorization).
   * Returns true when it may go on; otherwise the refusal has been written: 401 for bad
   * credentials, 403 naming the user and path, or kube's plain-text 500 when the API server could
   * not be asked and nothing else allowed the request.
   */
  async admit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const ctx = newAuthenticationContext();
    const outcome = await this.authenticator.authenticate(req, ctx);
    if (ctx.warnings.length > 0) res.setHeader('Warning', ctx.warnings.map(warningHeaderValue));
    if (outcome === undefined || !('user' in outcome)) {
      if (outcome !== undefined)
        this.logger.error('Unable to authenticate the request', { err: outcome.error });
      writeStatus(res, unauthorized());
      return false;
    }
    stripCredentialHeaders(req, ctx);
    const attrs: Attributes = {
      user: outcome.user,
      verb: (req.method ?? 'GET').toLowerCase(),
      isResourceRequest: false,
      path: new URL(req.url ?? '/', 'https://localhost').pathname,
      namespace: '',
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      name: '',
    };
    const { decision, reason, error } = await this.authorizer.authorize(attrs);
    if (decision === 'allow') return true;
    if (error !== undefined) {
      res.writeHead(500, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(`Internal Server Error: ${JSON.stringify(req.url ?? '/')}: ${error}\n`);
      return false;
    }
    this.logger.v(4).info('Forbidden', { URI: req.url ?? '/', reason });
    writeStatus(res, forbiddenError(attrs, reason));
    return false;
  }

  /** Closes the connections to the API server. */
  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }
}
