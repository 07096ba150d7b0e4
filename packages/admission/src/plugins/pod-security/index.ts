/** PodSecurity: the Pod Security Standards admission plugin and its policy checks. */
import type { AdmissionPluginDefinition } from '../../registry.js';
import { parsePodSecurityConfig } from './config.js';
import { podSecurity } from './plugin.js';

export { parsePodSecurityConfig, DEFAULT_POD_SECURITY_CONFIG, type PodSecurityConfig } from './config.js';
export { evaluatePod, forbiddenDetail, forbiddenReason, type Evaluation } from './evaluate.js';
export { policyFromLabels, type Level, type LevelVersion, type Policy } from './levels.js';
export { podSecurity, AUDIT_PREFIX, type PodSecurityDeps } from './plugin.js';

/** The registry's entry: the configuration is checked at start-up, the plugin reads namespaces and pods. */
export const podSecurityDefinition: AdmissionPluginDefinition = {
  prepare(config) {
    const parsed = parsePodSecurityConfig(config);
    return (deps) =>
      podSecurity(parsed, {
        namespaces: deps.objects('namespaces'),
        pods: deps.objects('pods'),
        readNamespace: (name) => deps.read('namespaces', '', name),
      });
  },
};
