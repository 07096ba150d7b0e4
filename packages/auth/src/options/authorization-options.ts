import {
  checkEachOneOf,
  checkOneOf,
  Duration,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
} from '@keel/flags';
import { checkDurationNonNegative, WEBHOOK_VERSIONS } from './checks.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** A remote SubjectAccessReview authorizer. */
export interface AuthorizationWebhookConfig {
  readonly configFile: string;
  readonly version: string;
  readonly cacheAuthorizedTTL: Duration;
  readonly cacheUnauthorizedTTL: Duration;
}

export interface AuthorizationConfig {
  /** The authorizer chain, in order; the first Allow or Deny wins. */
  readonly modes: readonly AuthorizationMode[];
  /** The ABAC policy file ('' unless mode ABAC). */
  readonly policyFile: string;
  /** undefined unless mode Webhook. */
  readonly webhook: AuthorizationWebhookConfig | undefined;
}

function isMode(m: string): m is AuthorizationMode {
  return (AUTHORIZATION_MODES as readonly string[]).includes(m);
}

/** The 'Authorization' flags of the API server (kube-apiserver BuiltInAuthorizationOptions). */
export class BuiltInAuthorizationOptions implements OptionsGroup<{ authorization?: AuthorizationConfig }> {
  modes: readonly string[] = ['AlwaysAllow'];
  policyFile = '';
  webhookConfigFile = '';
  webhookVersion = 'v1beta1';
  webhookCacheAuthorizedTTL = Duration.parse('5m');
  webhookCacheUnauthorizedTTL = Duration.parse('30s');

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authorization');
    s.var(this, 'modes', {
      name: 'authorization-mode',
      type: t.strings,
      usage: `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
    });
    s.var(this, 'policyFile', {
      name: 'authorization-policy-file',
      type: t.string,
      usage:
        'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    });
    s.var(this, 'webhookConfigFile', {
      name: 'authorization-webhook-config-file',
      type: t.string,
      usage:
        'File with webhook configuration in connection-config format, used with --authorization-mode=Webhook. The API ' +
        "server will query the remote service to determine access on the API server's secure port.",
    });
    s.var(this, 'webhookVersion', {
      name: 'authorization-webhook-version',
      type: t.string,
      usage:
        'The API version of the authorization SubjectAccessReview to send to and expect from the webhook (v1 or v1beta1).',
    });
    s.var(this, 'webhookCacheAuthorizedTTL', {
      name: 'authorization-webhook-cache-authorized-ttl',
      type: t.duration,
      usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
    });
    s.var(this, 'webhookCacheUnauthorizedTTL', {
      name: 'authorization-webhook-cache-unauthorized-ttl',
      type: t.duration,
      usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    const modes = new Set(this.modes);
    if (this.modes.length === 0) errors.push('at least one --authorization-mode must be passed');
    errors.push(...checkEachOneOf('authorization-mode', [...modes], AUTHORIZATION_MODES));
    for (const mode of modes) {
      if (this.modes.indexOf(mode) !== this.modes.lastIndexOf(mode)) {
        errors.push(`--authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
      }
    }
    if (modes.has('ABAC') && this.policyFile === '') {
      errors.push('--authorization-policy-file is required when --authorization-mode includes ABAC');
    }
    if (modes.has('Webhook') && this.webhookConfigFile === '') {
      errors.push(
        '--authorization-webhook-config-file is required when --authorization-mode includes Webhook',
      );
    }
    if (this.policyFile !== '' && !modes.has('ABAC')) {
      errors.push('cannot specify --authorization-policy-file without mode ABAC');
    }
    if (this.webhookConfigFile !== '' && !modes.has('Webhook')) {
      errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
    }
    errors.push(
      ...checkOneOf('authorization-webhook-version', this.webhookVersion, WEBHOOK_VERSIONS),
      ...checkDurationNonNegative(
        'authorization-webhook-cache-authorized-ttl',
        this.webhookCacheAuthorizedTTL,
      ),
      ...checkDurationNonNegative(
        'authorization-webhook-cache-unauthorized-ttl',
        this.webhookCacheUnauthorizedTTL,
      ),
    );
    return errors;
  }

  applyTo(config: { authorization?: AuthorizationConfig }): void {
    const modes = this.modes.filter(isMode);
    config.authorization = {
      modes,
      policyFile: modes.includes('ABAC') ? this.policyFile : '',
      webhook: modes.includes('Webhook')
        ? {
            configFile: this.webhookConfigFile,
            version: this.webhookVersion,
            cacheAuthorizedTTL: this.webhookCacheAuthorizedTTL,
            cacheUnauthorizedTTL: this.webhookCacheUnauthorizedTTL,
          }
        : undefined,
    };
  }
}
