export {
  BuiltInAuthenticationOptions,
  withServiceAccountKeyFallback,
  type AuthenticationConfig,
  type TokenWebhookConfig,
} from './options/authentication-options.js';
export {
  AUTHORIZATION_MODES,
  BuiltInAuthorizationOptions,
  type AuthorizationConfig,
  type AuthorizationMode,
  type AuthorizationWebhookConfig,
} from './options/authorization-options.js';
export {
  DelegatingAuthenticationOptions,
  type DelegatingAuthenticationConfig,
} from './options/delegating-authentication-options.js';
export {
  DelegatingAuthorizationOptions,
  type DelegatingAuthorizationConfig,
} from './options/delegating-authorization-options.js';
export { OIDC_SIGNING_ALGS, OIDCAuthenticationOptions, type OIDCConfig } from './options/oidc-options.js';
export {
  RequestHeaderAuthenticationOptions,
  type RequestHeaderConfig,
  type RequestHeaderDefaults,
} from './options/request-header-options.js';
export {
  ServiceAccountAuthenticationOptions,
  type ServiceAccountConfig,
} from './options/service-account-options.js';
export { WEBHOOK_VERSIONS } from './options/checks.js';

export { ConfigError } from './config-error.js';
export {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  ANONYMOUS_USER,
  CREDENTIAL_ID_KEY,
  SYSTEM_PRIVILEGED_GROUP,
  isError,
  isUser,
  newAuthenticationContext,
  type AuthenticationContext,
  type AuthenticationError,
  type AuthenticationRequest,
  type AuthenticationResult,
  type Authenticator,
  type TokenAuthenticator,
  type UserInfo,
} from './authn/types.js';
export { stripCredentialHeaders, warningHeaderValue, type MutableRequest } from './authn/headers.js';
export {
  BearerTokenAuthenticator,
  EXTRA_SPACE_WARNING,
  INVALID_BEARER_TOKEN,
  parseBearerHeader,
  type BearerToken,
} from './authn/bearer-token.js';
export { loadTokenFile, TokenFileAuthenticator, type StaticTokens } from './authn/token-file.js';
export { X509Authenticator } from './authn/x509.js';
export { parseCertificates } from './authn/cert-chain.js';
export { RequestHeaderAuthenticator, type RequestHeaderSettings } from './authn/request-header.js';
export {
  LEGACY_ISSUER,
  SA_EXTRA,
  ServiceAccountTokenAuthenticator,
  type ServiceAccountTokenSettings,
} from './authn/service-account.js';
export { SERVICE_ACCOUNT_ALGORITHMS } from './authn/jwt.js';
export { loadServiceAccountKeys, parsePublicKeysPem } from './authn/service-account-keys.js';
export {
  AnonymousAuthenticator,
  AuthenticatedGroupAdder,
  FallbackOnNoCredentials,
  UnionAuthenticator,
  UnionTokenAuthenticator,
} from './authn/union.js';
export { buildAuthenticator, type AuthenticatorDeps, type BuiltAuthenticator } from './authn/build.js';
export { OIDCAuthenticator, type OIDCAuthenticatorOptions } from './authn/oidc/index.js';
export {
  CachedTokenAuthenticator,
  TOKEN_REVIEWS_PATH,
  tokenReviewRequest,
  tokenReviewVerdict,
  WebhookTokenAuthenticator,
  type TokenReviewVersion,
  type WebhookTokenOptions,
} from './authn/webhook/index.js';

export type {
  Attributes,
  Authorizer,
  Decision,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RuleResolution,
  RuleResolver,
} from './authz/types.js';
export {
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  PrivilegedGroupAuthorizer,
  UnionAuthorizer,
} from './authz/builtin.js';
export { ABACAuthorizer, loadPolicyFile, policyMatches, type LoadedPolicies } from './authz/abac.js';
export type { PolicySpec } from './authz/abac-policy.js';
export { forbiddenError, forbiddenMessage } from './authz/forbidden.js';
export { ruleResolverOf, UnionRuleResolver } from './authz/rule-resolvers.js';
export { buildAuthorizer, type AuthorizerDeps, type BuiltAuthorizer } from './authz/build.js';
export {
  feedNodeGraph,
  isMirrorPod,
  MIRROR_POD_ANNOTATION,
  NODE_LEASE_NAMESPACE,
  NODE_RULES,
  NODE_USER_PREFIX,
  NodeAuthorizer,
  NodeGraph,
  NODES_GROUP,
  nodeIdentity,
  persistentVolumeGraphSource,
  podGraphSource,
  podNodeName,
  podReferences,
  volumeAttachmentGraphSource,
  type FeedChange,
  type GraphEdge,
  type GraphSource,
  type ObjectFeed,
  type PodLike,
  type PodReferences,
  type Vertex,
  type VertexType,
} from './authz/node/index.js';
export * as rbac from './authz/rbac/index.js';
export {
  IMPERSONATE_EXTRA_HEADER_PREFIX,
  IMPERSONATE_GROUP_HEADER,
  IMPERSONATE_UID_HEADER,
  IMPERSONATE_USER_HEADER,
  impersonate,
  impersonationRequests,
  stripImpersonationHeaders,
  type ImpersonationRequest,
} from './authn/impersonation.js';
export {
  BOTH_ALLOWED_AND_DENIED,
  decisionFromStatus,
  SUBJECT_ACCESS_REVIEWS_PATH,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
  WebhookAuthorizer,
  type SubjectAccessReviewVersion,
  type WebhookAuthorizerOptions,
} from './authz/webhook/index.js';
export {
  DEFAULT_REVIEW_BACKOFF,
  errorText,
  expectKind,
  REVIEW_TIMEOUT_MS,
  sendReview,
  TtlCache,
  webhookEndpoint,
  type RetryBackoff,
  type ReviewEndpoint,
  type ReviewRequestOptions,
} from './webhook/index.js';
export type { ServiceAccountTokenGetter, LookedUpObject, LookedUpSecret } from './authn/token-getter.js';
export {
  BootstrapTokenAuthenticator,
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
} from './authn/bootstrap-token.js';
export {
  ServiceAccountTokenIssuer,
  boundTokenClaims,
  keyIdOf,
  type BoundTokenSubject,
} from './authn/service-account-signer.js';
export {
  JWKS_PATH,
  OPENID_CONFIGURATION_PATH,
  openIDMetadata,
  type OpenIDMetadata,
} from './authn/service-account-discovery.js';
export { buildServiceAccountIssuer, type BuiltServiceAccountIssuer } from './authn/build-issuer.js';
