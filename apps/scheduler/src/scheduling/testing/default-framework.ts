import { Framework } from '../../framework/framework.js';
import type { BindPlugin } from '../../framework/interface.js';
import type { MaybeStatus } from '../../framework/status.js';
import { defaultSchedulerConfiguration } from '../../options/index.js';
import { newInTreeRegistry } from '../../plugins/default-registry.js';

/** kube's default profile over the in-tree plugins, with `bind` standing in for DefaultBinder. */
export function defaultFramework(
  bind: BindPlugin['bind'] = () => Promise.resolve<MaybeStatus>(undefined),
): Framework {
  const profile = defaultSchedulerConfiguration().profiles[0];
  if (!profile) throw new Error('no default profile');
  const binder: BindPlugin = { name: 'DefaultBinder', bind };
  return Framework.fromProfile(
    profile,
    newInTreeRegistry().register('DefaultBinder', () => binder),
  );
}
