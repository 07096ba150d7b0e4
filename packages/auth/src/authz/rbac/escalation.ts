/**
 * kube's ConfirmNoEscalation: a user may grant only rules they already hold in the request's
 * namespace. The refusal text is the real one (missing rules compacted, printed compactly and
 * sorted, one a line).
 */
import { compareGoStrings, goQuote } from '@keel/apimachinery';
import type { UserInfo } from '../../authn/types.js';
import type { RBACAuthorizer } from './authorizer.js';
import { compactRules, compactString, covers, goQuoteList } from './covers.js';
import type { PolicyRule } from './types.js';

/** Undefined when the user holds every rule; otherwise why not (the text after `is forbidden: `). */
export function confirmNoEscalation(
  resolver: RBACAuthorizer,
  user: UserInfo,
  namespace: string,
  granted: readonly PolicyRule[],
): string | undefined {
  const owned = resolver.resolve(user, namespace);
  const [ok, missing] = covers(owned.rules, granted);
  if (ok) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(compareGoStrings);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (owned.errors.length > 0) msg += `; resolution errors: [${owned.errors.join(' ')}]`;
  return msg;
}
