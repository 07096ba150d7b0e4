import { checkNonNegative, flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/** Cluster-wide pod policy the API server applies on admission. */
export interface PodPolicyConfig {
  readonly allowPrivileged: boolean;
  /** tolerationSeconds of the default `node.kubernetes.io/not-ready:NoExecute` toleration. */
  readonly defaultNotReadyTolerationSeconds: number;
  /** tolerationSeconds of the default `node.kubernetes.io/unreachable:NoExecute` toleration. */
  readonly defaultUnreachableTolerationSeconds: number;
}

export class PodPolicyOptions implements OptionsGroup<{ podPolicy?: PodPolicyConfig }> {
  allowPrivileged = false;
  defaultNotReadyTolerationSeconds = 300;
  defaultUnreachableTolerationSeconds = 300;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Misc');
    s.var(this, 'allowPrivileged', {
      name: 'allow-privileged',
      type: t.bool,
      usage: 'If true, allow privileged containers.',
    });
    s.var(this, 'defaultNotReadyTolerationSeconds', {
      name: 'default-not-ready-toleration-seconds',
      type: t.int,
      usage:
        'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every ' +
        'pod that does not already have such a toleration.',
    });
    s.var(this, 'defaultUnreachableTolerationSeconds', {
      name: 'default-unreachable-toleration-seconds',
      type: t.int,
      usage:
        'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to ' +
        'every pod that does not already have such a toleration.',
    });
  }

  validate(): string[] {
    return [
      ...checkNonNegative('default-not-ready-toleration-seconds', this.defaultNotReadyTolerationSeconds),
      ...checkNonNegative('default-unreachable-toleration-seconds', this.defaultUnreachableTolerationSeconds),
    ];
  }

  applyTo(config: { podPolicy?: PodPolicyConfig }): void {
    config.podPolicy = {
      allowPrivileged: this.allowPrivileged,
      defaultNotReadyTolerationSeconds: this.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: this.defaultUnreachableTolerationSeconds,
    };
  }
}
