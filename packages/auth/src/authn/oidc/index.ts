export {
  OIDC_INIT_RETRY_MS,
  OIDCAuthenticator,
  type OIDCAuthenticatorOptions,
} from './oidc-authenticator.js';
