import type { PluginFactory } from './interface.js';

/** kube's runtime.Registry: plugin name → factory. Registering a name twice is a programming error. */
export class Registry {
  private readonly factories = new Map<string, PluginFactory>();

  register(name: string, factory: PluginFactory): this {
    if (this.factories.has(name)) throw new Error(`a plugin named ${name} already exists`);
    this.factories.set(name, factory);
    return this;
  }

  /** Registers every plugin of `other`; a name both registries have throws. */
  merge(other: Registry): this {
    for (const [name, factory] of other.factories) this.register(name, factory);
    return this;
  }

  get(name: string): PluginFactory | undefined {
    return this.factories.get(name);
  }

  has(name: string): boolean {
    return this.factories.has(name);
  }

  names(): string[] {
    return [...this.factories.keys()];
  }
}
