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
