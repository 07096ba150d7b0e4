export * from './types.js';
export type { ObjectMetaLike } from './meta.js';
export type { RbacSource, RbacSources } from './sources.js';
export { RbacRuleIndex, type BoundRole, type RoleRules } from './rule-index.js';
export { RBACAuthorizer, describeBound, type ResolvedRules } from './authorizer.js';
export { ruleAllows } from './rule.js';
export { breakdownRule, compactRules, compactString, covers } from './covers.js';
export { confirmNoEscalation } from './escalation.js';
export * from './bootstrap-policy/index.js';
