import type { Dialer } from '@keel/client';
import type { Logger } from '@keel/log';
import type { AuthorizationConfig } from '../options/authorization-options.js';
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
import { NodeAuthorizer, type NodeGraph } from './node/index.js';
import { WebhookAuthorizer } from './webhook/index.js';

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
  /** The controlplane egress tunnel (--egress-selector-config-file) to the authorization webhook. */
  readonly dial?: Dialer | undefined;
  /** RBAC's rule index, attached to its watched copies once the store is open. */
  readonly rbacIndex?: RbacRuleIndex;
  /** The graph the Node mode decides from; the server feeds it from its informers. */
  readonly nodeGraph?: NodeGraph;
}

/**
 * The authorizer chain of --authorization-mode, in order, behind the system:masters short-circuit
 * (kube always puts it first). Throws a ConfigError (one line) for a policy, connection-config or
 * dependency a mode cannot do without.
 */
export function buildAuthorizer(config: AuthorizationConfig, deps: AuthorizerDeps = {}): BuiltAuthorizer {
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
          new WebhookAuthorizer(
            webhookEndpoint('authorization-webhook-config-file', hook.configFile, deps.dial),
            {
              version: hook.version === 'v1' ? 'v1' : 'v1beta1',
              allowTtlMs: hook.cacheAuthorizedTTL.milliseconds,
              denyTtlMs: hook.cacheUnauthorizedTTL.milliseconds,
              logger,
            },
          ),
        );
        break;
      }
      case 'RBAC':
        rbac = new RBACAuthorizer(deps.rbacIndex ?? new RbacRuleIndex());
        chain.push(rbac);
        break;
      case 'Node':
        if (!deps.nodeGraph) throw new ConfigError('--authorization-mode Node needs the node graph');
        chain.push(new NodeAuthorizer(deps.nodeGraph));
        break;
      default:
        // Unreachable: the options accept only the six modes.
        throw new ConfigError(`--authorization-mode ${String(mode)} is not a mode`);
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
