export {
  rbacClusterRoleBindingView,
  rbacClusterRoleView,
  rbacRoleBindingView,
  rbacRoleView,
} from './views.js';
export type { BindingObject, RoleObject } from './validation.js';
