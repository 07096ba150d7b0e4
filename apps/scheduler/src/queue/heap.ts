/**
 * A binary heap whose items are also found by key, so the queue can update or remove a pod in
 * O(log n) (kube's heap.Heap with its keyFunc).
 */
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  /** Adds the item, or replaces the one with its key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i === undefined) {
      this.items.push(item);
      this.index.set(key, this.items.length - 1);
      this.up(this.items.length - 1);
      return;
    }
    this.items[i] = item;
    this.fix(i);
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i] as T;
    const last = this.items.length - 1;
    if (i !== last) this.swap(i, last);
    this.items.pop();
    this.index.delete(key);
    if (i < this.items.length) this.fix(i);
    return item;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.delete(this.keyOf(top));
    return top;
  }

  /** Items in heap (not sorted) order. */
  values(): readonly T[] {
    return this.items;
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  private up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i] as T, this.items[parent] as T)) break;
      this.swap(i, parent);
      i = parent;
    }
    return i !== start;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      let child = l;
      if (r < n && this.less(this.items[r] as T, this.items[l] as T)) child = r;
      if (!this.less(this.items[child] as T, this.items[i] as T)) return;
      this.swap(i, child);
      i = child;
    }
  }

  private swap(i: number, j: number): void {
    const a = this.items[i] as T;
    const b = this.items[j] as T;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(this.keyOf(b), i);
    this.index.set(this.keyOf(a), j);
  }
}
