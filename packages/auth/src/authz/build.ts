import type { Logger } from '@keel/log';
import type { AuthorizationConfig, AuthorizationMode } from '../options/authorization-options.js';
import { ConfigError } from '../config-error.js';
import { LateLogger } from '../late-logger.js';
import { webhookEndpoint } from '../webhook/endpoint.js';
import { ABACAuthorizer, loadPolicyFile } from './abac.js';
import {
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  PrivilegedGroupAuthorizer,
  UnionAuthorizer,
} from './builtin.js';
import { RBACAuthorizer } from './rbac/authorizer.js';
import { RbacRuleIndex } from './rbac/rule-index.js';
import { ruleResolverOf, UnionRuleResolver } from './rule-resolvers.js';
import type { Authorizer, RuleResolver } from './types.js';
import { WebhookAuthorizer } from './webhook/index.js';

/** The modes Keel has no implementation of yet; configuring one stops start-up. */
export const UNSUPPORTED_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Node'];

export interface BuiltAuthorizer {
  readonly authorizer: Authorizer;
  /**
   * The rules each mode grants a user, unioned in mode order (SelfSubjectRulesReview). A mode
   * whose authorizer cannot list its rules makes the answer incomplete; the system:masters
   * short-circuit lists nothing, as in kube.
   */
  readonly ruleResolver: RuleResolver;
  readonly warnings: readonly string[];
  /** Gives the Webhook authorizer the daemon's logger once it exists. */
  readonly logTo?: (logger: Logger) => void;
  /** The RBAC authorizer when the mode is configured (also the rule resolver of its mode). */
  readonly rbac?: RBACAuthorizer;
}

/** What the authorizers are fed after start-up (the store opens after the chain is built). */
export interface AuthorizerDeps {
  /** RBAC's rule index, attached to its watched copies once the store is open. */
  readonly rbacIndex?: RbacRuleIndex;
}

/**
 * The authorizer chain of --authorization-mode, in order, behind the system:masters short-circuit
 * (kube always puts it first). Throws a ConfigError for a mode Keel does not support yet (one line
 * naming them) or an ABAC policy file that cannot be loaded.
 */
export function buildAuthorizer(config: AuthorizationConfig, deps: AuthorizerDeps = {}): BuiltAuthorizer {
  const unsupported = config.modes.filter((m) => UNSUPPORTED_AUTHORIZATION_MODES.includes(m));
  if (unsupported.length > 0) {
    throw new ConfigError(
      `--authorization-mode ${unsupported.join(', ')} ${unsupported.length === 1 ? 'is' : 'are'} not supported yet by Keel`,
    );
  }
  const warnings: string[] = [];
  const logger = new LateLogger();
  const chain: Authorizer[] = [new PrivilegedGroupAuthorizer()];
  const resolvers: RuleResolver[] = [];
  let rbac: RBACAuthorizer | undefined;
  for (const mode of config.modes) {
    switch (mode) {
      case 'AlwaysAllow':
        chain.push(new AlwaysAllowAuthorizer());
        break;
      case 'AlwaysDeny':
        chain.push(new AlwaysDenyAuthorizer());
        break;
      case 'ABAC': {
        const loaded = loadPolicyFile(config.policyFile);
        warnings.push(...loaded.warnings);
        chain.push(new ABACAuthorizer(loaded.policies));
        break;
      }
      case 'Webhook': {
        const hook = config.webhook;
        if (hook === undefined) throw new ConfigError('--authorization-webhook-config-file is required');
        chain.push(
          new WebhookAuthorizer(webhookEndpoint('authorization-webhook-config-file', hook.configFile), {
            version: hook.version === 'v1' ? 'v1' : 'v1beta1',
            allowTtlMs: hook.cacheAuthorizedTTL.milliseconds,
            denyTtlMs: hook.cacheUnauthorizedTTL.milliseconds,
            logger,
          }),
        );
        break;
      }
      case 'RBAC':
        rbac = new RBACAuthorizer(deps.rbacIndex ?? new RbacRuleIndex());
        chain.push(rbac);
        break;
      default:
        // Unreachable: every other mode was refused above.
        throw new ConfigError(`--authorization-mode ${mode} is not supported yet by Keel`);
    }
    // Each mode adds one authorizer; its resolver (or the lack of one) is worked out from it.
    const added = chain[chain.length - 1];
    if (added) resolvers.push(ruleResolverOf(added));
  }
  return {
    authorizer: new UnionAuthorizer(chain),
    ruleResolver: new UnionRuleResolver(resolvers),
    warnings,
    logTo: (l) => logger.attach(l),
    ...(rbac ? { rbac } : {}),
  };
}
