import { describe, expect, it } from 'vitest';
import { EncodedItems } from './encoded-items.js';
import type { InternalObject, ResourceView } from './resource-view.js';

/** A view that counts its encodes; only the parts EncodedItems reads. */
function view(version: string) {
  const v = {
    group: 'example.dev',
    version,
    resource: 'things',
    encodes: 0,
    encode(o: InternalObject) {
      v.encodes++;
      return { apiVersion: `example.dev/${version}`, kind: 'Thing', ...o };
    },
  };
  return v;
}
const asView = (v: ReturnType<typeof view>) => v as unknown as ResourceView;
const thing = (rv: string, n: number): InternalObject =>
  ({ metadata: { name: 'a', namespace: 'ns', resourceVersion: rv }, spec: { n } }) as InternalObject;
const key = () => '/things/ns/a';
const text = (b: Buffer) => b.toString('utf8');

describe('EncodedItems', () => {
  it('encodes a watch event once for every watcher of the same object and view', () => {
    const items = new EncodedItems();
    const v1 = view('v1');
    const o = thing('5', 1);
    const first = items.watchEvent(asView(v1), 'ADDED', o, key);
    expect(items.watchEvent(asView(v1), 'ADDED', o, key)).toBe(first);
    expect(v1.encodes).toBe(1);
    expect(text(first)).toBe(
      `${JSON.stringify({ type: 'ADDED', object: { apiVersion: 'example.dev/v1', kind: 'Thing', ...o } })}\n`,
    );
  });

  it('keeps lines apart by view, event type and object state', () => {
    const items = new EncodedItems();
    const v1 = view('v1');
    const v2 = view('v2');
    const o = thing('5', 1);
    const added = text(items.watchEvent(asView(v1), 'ADDED', o, key));
    // Another view of the same object: its own apiVersion, not the line cached for v1.
    expect(text(items.watchEvent(asView(v2), 'ADDED', o, key))).toContain('"apiVersion":"example.dev/v2"');
    // The same object as another event type (a DELETED carries the last state).
    expect(text(items.watchEvent(asView(v1), 'DELETED', o, key))).toMatch(/^\{"type":"DELETED"/);
    // Back to the first: still right (from the keyed cache), without encoding again.
    const before = v1.encodes;
    expect(text(items.watchEvent(asView(v1), 'ADDED', o, key))).toBe(added);
    expect(v1.encodes).toBe(before);
    // A new state of the object (new version, new object) is encoded anew.
    const next = text(items.watchEvent(asView(v1), 'MODIFIED', thing('6', 2), key));
    expect(next).toContain('"n":2');
    expect(next).toContain('"resourceVersion":"6"');
  });

  it('gives list members as bytes without kind and apiVersion, once per version', () => {
    const items = new EncodedItems();
    const v1 = view('v1');
    let loads = 0;
    const load = () => {
      loads++;
      return thing('5', 1);
    };
    const a = items.listItem(asView(v1), '/things/ns/a', '5', load);
    const b = items.listItem(asView(v1), '/things/ns/a', '5', load);
    expect(b).toBe(a);
    expect(loads).toBe(1);
    expect(JSON.parse(text(a))).toEqual(thing('5', 1));
    // A newer version of the key is a miss.
    items.listItem(asView(v1), '/things/ns/a', '6', () => thing('6', 2));
    expect(loads).toBe(1);
    expect(JSON.parse(text(items.listItem(asView(v1), '/things/ns/a', '6', load)))).toEqual(thing('6', 2));
  });

  it('answers a list item by version only once it is encoded, and never for another version or form', () => {
    const items = new EncodedItems();
    const v1 = view('v1');
    const v2 = view('v2');
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBeUndefined();
    const a = items.listItem(asView(v1), '/things/ns/a', '5', () => thing('5', 1));
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    // An update is a new version: the old bytes are never an answer for it.
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '6')).toBeUndefined();
    expect(items.cachedListItem(asView(v1), '/things/ns/b', '5')).toBeUndefined();
    expect(items.cachedListItem(asView(v2), '/things/ns/a', '5')).toBeUndefined();
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '')).toBeUndefined();
    expect(items.cachedListItemProto(asView(v1), '/things/ns/a', '5')).toBeUndefined();
    const pb = items.listItemProto(
      asView(v1),
      '/things/ns/a',
      '5',
      () => thing('5', 1),
      () => Uint8Array.of(1),
    );
    expect(items.cachedListItemProto(asView(v1), '/things/ns/a', '5')).toBe(pb);
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    expect(v1.encodes).toBe(2);
  });

  it('answers by storage key only for the version it holds, and forgets what the LRU evicts', () => {
    const v1 = view('v1');
    const member = (rv: string, n: number) => () => thing(rv, n);
    // Room for two members (each about 77 chars of JSON and a key of 47).
    const items = new EncodedItems(260);
    const a5 = items.listItem(asView(v1), '/things/ns/a', '5', member('5', 1));
    const a6 = items.listItem(asView(v1), '/things/ns/a', '6', member('6', 2));
    // The newer state took the key's slot; the older one is still answered for its own version.
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '6')).toBe(a6);
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a5);
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '7')).toBeUndefined();
    // Encoding an older state again after a newer one: each version keeps its own bytes.
    items.listItem(asView(v1), '/things/ns/b', '3', member('3', 3));
    items.listItem(asView(v1), '/things/ns/c', '4', member('4', 4));
    // a's states were evicted (least recently used): neither is answered any more, by slot or key.
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '6')).toBeUndefined();
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBeUndefined();
    // And encoding a again makes a fresh entry that is answered.
    let loads = 0;
    const again = items.listItem(asView(v1), '/things/ns/a', '6', () => {
      loads++;
      return thing('6', 2);
    });
    expect(loads).toBe(1);
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '6')).toBe(again);
    expect(JSON.parse(text(again))).toEqual(thing('6', 2));
  });

  it('keeps what lists read in the LRU by use, touched once per addition', () => {
    const v1 = view('v1');
    const member = (rv: string, n: number) => () => thing(rv, n);
    // Room for two members, as above.
    const items = new EncodedItems(260);
    const a = items.listItem(asView(v1), '/things/ns/a', '5', member('5', 1));
    items.listItem(asView(v1), '/things/ns/b', '3', member('3', 2));
    // a is read after b was added (twice: the second touch moves nothing), so b goes first.
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    const c = items.listItem(asView(v1), '/things/ns/c', '4', member('4', 3));
    expect(items.cachedListItem(asView(v1), '/things/ns/b', '3')).toBeUndefined();
    // Read again after c's addition, a outlives c as well.
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    items.listItem(asView(v1), '/things/ns/d', '6', member('6', 4));
    expect(items.cachedListItem(asView(v1), '/things/ns/c', '4')).toBeUndefined();
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    expect(c).toBeDefined();
  });

  it("answers a list's look-up like cachedListItem, also for items encoded after it was made", () => {
    const v1 = view('v1');
    const items = new EncodedItems();
    const json = items.cachedListItems(asView(v1));
    const proto = items.cachedListItemsProto(asView(v1));
    expect(json('/things/ns/a', '5')).toBeUndefined();
    const a5 = items.listItem(asView(v1), '/things/ns/a', '5', () => thing('5', 1));
    const a6 = items.listItem(asView(v1), '/things/ns/a', '6', () => thing('6', 2));
    expect(json('/things/ns/a', '6')).toBe(a6);
    expect(json('/things/ns/a', '5')).toBe(a5); // by the full key: the slot holds 6
    expect(json('/things/ns/a', '7')).toBeUndefined();
    expect(json('/things/ns/a', '')).toBeUndefined();
    expect(proto('/things/ns/a', '6')).toBeUndefined();
    expect(items.cachedListItems(asView(view('v2')))('/things/ns/a', '6')).toBeUndefined();
  });

  it('keeps views and forms apart in the slots as in the keys', () => {
    const items = new EncodedItems();
    const v1 = view('v1');
    const v2 = view('v2');
    const a = items.listItem(asView(v1), '/things/ns/a', '5', () => thing('5', 1));
    const b = items.listItem(asView(v2), '/things/ns/a', '5', () => thing('5', 1));
    expect(text(b)).not.toBe(text(a) + 'x');
    expect(items.cachedListItem(asView(v1), '/things/ns/a', '5')).toBe(a);
    expect(items.cachedListItem(asView(v2), '/things/ns/a', '5')).toBe(b);
    expect(items.cachedListItemProto(asView(v1), '/things/ns/a', '5')).toBeUndefined();
    // Another view object of the same name finds the same state through the full key.
    expect(items.cachedListItem(asView(view('v1')), '/things/ns/a', '5')).toBe(a);
  });
});
