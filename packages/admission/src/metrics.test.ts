import { describe, expect, it } from 'vitest';
import {
  AdmissionChain,
  withControllerMetrics,
  withStepMetrics,
  type AdmissionAttributes,
  type AdmissionPlugin,
  type LatencyObserver,
} from './index.js';
import { chainOf, depsOf } from './testing/index.js';

const attrs = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation,
  resource: { group: '', version: 'v1', resource: 'configmaps' },
  subresource: '',
  kind: { group: '', version: 'v1', kind: 'ConfigMap' },
  namespace: 'default',
  name: 'cm',
  object: { metadata: { name: 'cm' } },
  oldObject: undefined,
  user: { name: 'u', uid: '', groups: [], extra: {} },
  dryRun: false,
});

/** Records `type operation rejected` per observation; the seconds must be a duration. */
function recorder(): LatencyObserver<'admit' | 'validate'> & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    observe(type, operation, rejected, seconds) {
      expect(seconds).toBeGreaterThanOrEqual(0);
      seen.push(`${type} ${operation} ${rejected}`);
    },
  };
}

const refuse = () => {
  throw new Error('refused');
};

describe('withControllerMetrics', () => {
  it('times each phase the plugin has; a throw is a rejection', async () => {
    const seen = recorder();
    const plugin = withControllerMetrics(
      { name: 'p', handles: () => true, admit: () => undefined, validate: refuse },
      seen,
    );
    expect(plugin.name).toBe('p');
    await plugin.admit?.(attrs('CREATE'));
    expect(() => plugin.validate?.(attrs('UPDATE'))).toThrow('refused');
    expect(seen.seen).toEqual(['admit CREATE false', 'validate UPDATE true']);
  });

  it('keeps a synchronous plugin synchronous, and times an asynchronous one when it settles', async () => {
    const seen = recorder();
    const sync = withControllerMetrics({ name: 's', handles: () => true, admit: () => undefined }, seen);
    expect(sync.admit?.(attrs('CREATE'))).toBeUndefined();
    const slow = withControllerMetrics(
      {
        name: 'a',
        handles: () => true,
        validate: () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('late')), 5)),
      },
      seen,
    );
    const pending = slow.validate?.(attrs('DELETE'));
    expect(seen.seen).toEqual(['admit CREATE false']);
    await expect(pending).rejects.toThrow('late');
    expect(seen.seen).toEqual(['admit CREATE false', 'validate DELETE true']);
  });

  it('adds no phase a plugin lacks, so the chain still skips it', () => {
    const plugin = withControllerMetrics(
      { name: 'v', handles: () => true, validate: () => undefined },
      recorder(),
    );
    expect('admit' in plugin).toBe(false);
    expect(new AdmissionChain([plugin]).plugins).toHaveLength(1);
  });
});

describe('withStepMetrics', () => {
  it('times each phase of a write the chain handles', async () => {
    const seen = recorder();
    const deny: AdmissionPlugin = { name: 'deny', handles: (op) => op === 'CREATE', validate: refuse };
    const step = withStepMetrics(new AdmissionChain([deny]), seen);
    await step.admit(attrs('CREATE'));
    await expect(step.validate(attrs('CREATE'))).rejects.toThrow('refused');
    // No plugin handles an UPDATE: not a step.
    await step.admit(attrs('UPDATE'));
    await step.validate(attrs('UPDATE'));
    expect(seen.seen).toEqual(['admit CREATE false', 'validate CREATE true']);
    expect(step.handles('UPDATE')).toBe(false);
  });
});

describe('prepareAdmission with metrics', () => {
  it('times every configured plugin under its name', async () => {
    const byName = new Map<string, string[]>();
    const controller = (name: string) => {
      const seen = recorder();
      byName.set(name, seen.seen);
      return seen;
    };
    const ignore = { observe: () => undefined };
    const chain = chainOf(['AlwaysAdmit', 'AlwaysDeny'], {
      ...depsOf({}),
      metrics: { step: ignore, controller, webhook: () => ignore, webhookRejection: () => undefined },
    });
    expect(chain.plugins.map((p) => p.name)).toEqual(['AlwaysAdmit', 'AlwaysDeny']);
    await expect(chain.admit(attrs('CREATE'))).rejects.toMatchObject({ status: { code: 403 } });
    expect(Object.fromEntries(byName)).toEqual({
      AlwaysAdmit: ['admit CREATE false'],
      AlwaysDeny: ['admit CREATE true'],
    });
  });
});
