import type { AuthorizationConfig, AuthorizationMode } from '../options/authorization-options.js';
import { ConfigError } from '../config-error.js';
import { ABACAuthorizer, loadPolicyFile } from './abac.js';
import {
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  PrivilegedGroupAuthorizer,
  UnionAuthorizer,
} from './builtin.js';
import { NodeAuthorizer, type NodeGraph } from './node/index.js';
import type { Authorizer } from './types.js';

/** The modes Keel has no implementation of yet; configuring one stops start-up. */
export const UNSUPPORTED_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Webhook', 'RBAC'];

/** What the modes decide from that lives outside the configuration. */
export interface AuthorizerDeps {
  /** The graph the Node mode decides from; the server feeds it from its informers. */
  readonly nodeGraph?: NodeGraph;
}

export interface BuiltAuthorizer {
  readonly authorizer: Authorizer;
  readonly warnings: readonly string[];
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
  const chain: Authorizer[] = [new PrivilegedGroupAuthorizer()];
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
      case 'Node':
        if (!deps.nodeGraph) throw new ConfigError('--authorization-mode Node needs the node graph');
        chain.push(new NodeAuthorizer(deps.nodeGraph));
        break;
      default:
        // Unreachable: every other mode was refused above.
        throw new ConfigError(`--authorization-mode ${mode} is not supported yet by Keel`);
    }
  }
  return { authorizer: new UnionAuthorizer(chain), warnings };
}
