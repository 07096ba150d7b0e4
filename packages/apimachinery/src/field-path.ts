/**
 * A field path as apimachinery's field.Path renders it: `metadata.name`, `spec.containers[0]`,
 * `metadata.labels[app]`. Paths are immutable; every step returns a new path.
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    /** Set for a named step, empty for a subscript. */
    private readonly name: string,
    private readonly subscript: string,
  ) {}

  /** A root path, optionally with more named steps: `FieldPath.of('metadata', 'name')`. */
  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(undefined, name, '');
    for (const n of more) p = p.child(n);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name, '');
    for (const n of more) p = new FieldPath(p, n, '');
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, '', String(i));
  }

  key(k: string): FieldPath {
    return new FieldPath(this, '', k);
  }

  toString(): string {
    const steps: FieldPath[] = [this];
    for (let p = this.parent; p; p = p.parent) steps.unshift(p);
    let out = '';
    for (const p of steps) {
      if (p.name) out += (p.parent ? '.' : '') + p.name;
      else out += `[${p.subscript}]`;
    }
    return out;
  }
}

/** Shorthand for `FieldPath.of`: `path('metadata').child('name')`. */
export function path(name: string, ...more: string[]): FieldPath {
  return FieldPath.of(name, ...more);
}

/**
 * What a field error may be given as a path. `null` stands for Go's nil *field.Path, which
 * renders as `<nil>` (label selector key errors show it).
 */
export type PathLike = FieldPath | string | null;

export function pathString(p: PathLike): string {
  if (p === null) return '<nil>';
  return typeof p === 'string' ? p : p.toString();
}
