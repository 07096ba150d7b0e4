import {
  conflictModified,
  generateName,
  generateNameConflict,
  invalid,
  invalidValue,
  path,
  newUid,
  notFound,
  type FieldError,
  type LabelSelector,
  type FieldSelector,
} from '@keel/apimachinery';
import { noAdmission, type Admission, type AdmissionAttributes, type Operation } from '@keel/admission';
import type { UserInfo } from '@keel/auth';
import {
  isStorageError,
  type ListOptions as StorageListOptions,
  type ListResult,
  type Storage,
  type WatchEvent,
  type WatchSink,
} from '@keel/storage';
import { encodedItemsFor, type EncodedItems } from './encoded-items.js';
import { checkCreateNamespace, checkDeletePreconditions, checkName } from './checks.js';
import { finishesDeletion, hasFinalizers, keepDeletionMarks, markDeleting } from './finalizers.js';
import { deletionFinalizers, type GarbageCollectionOptions } from './gc-finalizers.js';
import { interpretStorageError } from './interpret-storage-error.js';
import { baseEntries, recordManager, sameEntries } from './managed-fields.js';
import { unchangedByUpdate } from './same-object.js';
import { apiVersionOf, qualifiedResource, type InternalObject, type ResourceView } from './resource-view.js';
import type {
  DeleteContext,
  ListQuery,
  RequestEffects,
  StoreOptions,
  WriteContext,
  WriteHooks,
  WriteTransaction,
} from './store-types.js';

export type {
  DeleteContext,
  ListQuery,
  RequestEffects,
  StoreOptions,
  WriteContext,
  WriteHooks,
  WriteTransaction,
} from './store-types.js';

const NOTHING_RESERVED: WriteTransaction = {
  commit: () => Promise.resolve(),
  revert: () => Promise.resolve(),
};

const GENERATE_NAME_ATTEMPTS = 8;
/** Deletions of an object that keeps changing between the read and the mark give up after this many tries. */
const DELETE_ATTEMPTS = 8;
/** Thrown from a storage delete's validate to keep an object its finalizers hold. */
class HeldByFinalizers<I> extends Error {
  constructor(readonly state: I) {
    super('held by finalizers');
  }
}

/**
 * A watch that did not ask for initial events has no end of them to mark (sendInitialEvents=false
 * sends none, and an empty store starts at "0"; a legacy watch sends them without the bookmark).
 */
async function* withoutInitialEventsEnd<I>(
  events: AsyncIterable<WatchEvent<I>>,
): AsyncIterable<WatchEvent<I>> {
  for await (const ev of events) {
    if (ev.type === 'BOOKMARK' && ev.initialEventsEnd) continue;
    yield ev;
  }
}

function rfc3339Seconds(d: Date): string {
  // toISOString always ends in `.sssZ`; slicing it off is the regex replace without the regex.
  return `${d.toISOString().slice(0, -5)}Z`;
}

/**
 * Kubernetes' generic registry Store for one view of a resource: the fixed create/update/delete
 * pipelines (system metadata, generateName, validation, managed fields, TTL, preconditions) and
 * the translation of storage errors. Resource knowledge comes only from the view.
 */
export class GenericStore<I extends InternalObject> {
  readonly view: ResourceView<I>;
  protected readonly storage: Storage;
  private readonly keyRoot: string;
  private readonly ttlSeconds: number | undefined;
  protected readonly now: () => Date;
  protected readonly qr: { group: string; resource: string };
  private readonly views: ReadonlyMap<string, ResourceView<I>>;
  /** List items' and watch events' JSON per stored state, shared by the stores of this storage. */
  private readonly encoded: EncodedItems;
  private readonly admission: Admission;
  private readonly subresource: string;
  private readonly holdsDeletion: (obj: I) => boolean;
  private readonly garbageCollection: GarbageCollectionOptions;
  private readonly hooks: WriteHooks<I> | undefined;

  constructor(opts: StoreOptions<I>) {
    this.view = opts.view;
    this.views = new Map((opts.views ?? []).map((v) => [apiVersionOf(v), v]));
    this.storage = opts.storage;
    this.keyRoot = opts.keyRoot;
    this.ttlSeconds = opts.ttlSeconds;
    this.now = opts.now ?? (() => new Date());
    this.qr = qualifiedResource(opts.view);
    this.encoded = encodedItemsFor(opts.storage);
    this.admission = opts.admission ?? noAdmission;
    this.subresource = opts.subresource ?? '';
    this.holdsDeletion = opts.holdsDeletion ?? (() => false);
    this.garbageCollection = opts.garbageCollection ?? { enabled: false };
    this.hooks = opts.hooks;
  }

  /** Whether deletes add the garbage collector's finalizers. */
  protected get gcEnabled(): boolean {
    return this.garbageCollection.enabled;
  }

  /** The store's key root, e.g. `/configmaps` (the garbage collector watches it). */
  get keyRootPath(): string {
    return this.keyRoot;
  }

  /** The attributes admission sees for one write through this store's view. */
  private attributes(
    operation: Operation,
    namespace: string,
    name: string,
    object: I | undefined,
    oldObject: I | undefined,
    ctx: RequestEffects & { user: UserInfo; dryRun: boolean },
  ): AdmissionAttributes {
    const v = this.view;
    return {
      operation,
      resource: { group: v.group, version: v.version, resource: v.resource },
      subresource: this.subresource,
      kind: { group: v.group, version: v.version, kind: v.kind },
      namespace: v.namespaced ? namespace : '',
      name,
      object,
      oldObject,
      user: ctx.user,
      dryRun: ctx.dryRun,
      // Webhooks see and patch the object in this view's wire form.
      codec: { encode: (o) => v.encode(o as I), decode: (wire) => v.decode(wire).object },
      ...(ctx.annotate ? { addAnnotation: ctx.annotate } : {}),
      ...(ctx.warn ? { addWarning: ctx.warn } : {}),
    };
  }

  key(namespace: string, name: string): string {
    return this.view.namespaced ? `${this.keyRoot}/${namespace}/${name}` : `${this.keyRoot}/${name}`;
  }

  private prefix(namespace: string): string {
    return namespace === '' ? this.keyRoot : `${this.keyRoot}/${namespace}`;
  }

  protected fail(err: unknown, name: string, op: 'list' | 'watch' | 'other' = 'other'): never {
    throw interpretStorageError(err, this.qr, name, op);
  }

  private invalid(obj: I, errs: FieldError[]): void {
    if (errs.length > 0) throw invalid(this.view.invalidKind, obj.metadata.name ?? '', errs);
  }

  /** The predicate a list or watch applies: label and field selectors over the view's fields. */
  predicate(q: {
    labelSelector: LabelSelector;
    fieldSelector: FieldSelector;
  }): ((obj: I) => boolean) | undefined {
    if (q.labelSelector.isEmpty() && q.fieldSelector.isEmpty()) return undefined;
    return (obj) =>
      q.labelSelector.matches(obj.metadata.labels ?? {}) && q.fieldSelector.matches(this.view.fields(obj));
  }

  async get(namespace: string, name: string): Promise<I> {
    try {
      return await this.storage.get<I>(this.key(namespace, name));
    } catch (err) {
      this.fail(err, name);
    }
  }

  async list(namespace: string, q: ListQuery): Promise<ListResult<I>> {
    const predicate = this.predicate(q);
    return this.listWith<I>(namespace, q, predicate ? { predicate } : {});
  }

  /**
   * A list of the items' list-member JSON (UTF-8 bytes), in this view: from the encoded cache
   * where it holds the version, so an unchanged object is neither decoded nor encoded again;
   * selectors need the objects, so they take the decoding path.
   */
  async listJson(namespace: string, q: ListQuery): Promise<ListResult<Buffer>> {
    const predicate = this.predicate(q);
    if (predicate) {
      const listed = await this.listWith<I>(namespace, q, { predicate });
      return {
        ...listed,
        items: listed.items.map((o) =>
          this.encoded.listItem(this.view, this.keyOf(o), o.metadata.resourceVersion ?? '', () => o),
        ),
      };
    }
    // Everything under this key root was written through this store as an I.
    return this.listWith(namespace, q, {
      cached: this.encoded.cachedListItems(this.view),
      decode: (key, rv, parse) => this.encoded.listItem(this.view, key, rv, () => parse() as unknown as I),
    });
  }

  /** listJson's counterpart for protobuf: each item's message, from the same cache. */
  async listProto(
    namespace: string,
    q: ListQuery,
    encode: (member: Record<string, unknown>) => Uint8Array,
  ): Promise<ListResult<Uint8Array>> {
    const predicate = this.predicate(q);
    if (predicate) {
      const listed = await this.listWith<I>(namespace, q, { predicate });
      return {
        ...listed,
        items: listed.items.map((o) =>
          this.encoded.listItemProto(
            this.view,
            this.keyOf(o),
            o.metadata.resourceVersion ?? '',
            () => o,
            encode,
          ),
        ),
      };
    }
    return this.listWith(namespace, q, {
      cached: this.encoded.cachedListItemsProto(this.view),
      decode: (key, rv, parse) =>
        this.encoded.listItemProto(this.view, key, rv, () => parse() as unknown as I, encode),
    });
  }

  /** A watch event's JSON line with its newline, as bytes: encoded once for every watcher. */
  watchLine(type: string, obj: I): Buffer {
    return this.encoded.watchEvent(this.view, type, obj, () => this.keyOf(obj));
  }

  /** watchLine's counterpart for protobuf watchers: the event's frame, encoded once for all. */
  watchFrame(
    type: string,
    obj: I,
    encode: (type: string, object: Record<string, unknown>) => Buffer,
  ): Buffer {
    return this.encoded.watchFrame(this.view, type, this.keyOf(obj), obj, encode);
  }

  private keyOf(obj: I): string {
    return this.key(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  }

  private async listWith<T extends object>(
    namespace: string,
    q: ListQuery,
    extra: Pick<StorageListOptions<T>, 'predicate' | 'decode' | 'cached'>,
  ): Promise<ListResult<T>> {
    try {
      return await this.storage.list<T>(this.prefix(namespace), {
        limit: q.limit,
        ...(q.continue !== '' ? { continueKey: q.continue } : {}),
        resourceVersion: q.resourceVersion,
        ...(q.resourceVersionMatch !== ''
          ? { match: q.resourceVersionMatch as 'Exact' | 'NotOlderThan' }
          : {}),
        ...extra,
      });
    } catch (err) {
      this.fail(err, '', 'list');
    }
  }

  /**
   * Opens a watch. `sendInitialEvents` (WatchList) picks the start: true streams the current state
   * (at least as new as resourceVersion) before the changes; false starts after resourceVersion,
   * or from now when it is unset or 0; undefined keeps the legacy rule (state only from ""/0).
   * Only a watch that asked for initial events gets the bookmark ending them: with the WatchList
   * gate off a legacy watch from "" streams the state without it, as the real server does.
   * Rejects (before anything is streamed) when the store has not reached resourceVersion.
   * The events' objects may be shared with other watches of the same change: read them only.
   */
  async watch(
    namespace: string,
    q: {
      labelSelector: LabelSelector;
      fieldSelector: FieldSelector;
      resourceVersion: string;
      sendInitialEvents?: boolean | undefined;
      bookmarks: boolean;
      signal: AbortSignal;
      /** Takes the live events as they are dispatched (WatchOptions.sink). */
      sink?: WatchSink<I>;
    },
  ): Promise<AsyncIterable<WatchEvent<I>>> {
    const predicate = this.predicate(q);
    const prefix = this.prefix(namespace);
    const fromAny = q.resourceVersion === '' || q.resourceVersion === '0';
    let resourceVersion = q.resourceVersion;
    try {
      if (q.sendInitialEvents === true && !fromAny) {
        // Waits for the store to reach it (TooLargeResourceVersion otherwise); the state streamed
        // is then the latest, which is at least that new.
        await this.storage.list<I>(prefix, { resourceVersion, match: 'NotOlderThan', limit: 1 });
        resourceVersion = '';
      } else if (q.sendInitialEvents === false && fromAny) {
        resourceVersion = await this.storage.currentResourceVersion(prefix);
      }
    } catch (err) {
      this.fail(err, '', 'list');
    }
    let events: AsyncIterable<WatchEvent<I>>;
    try {
      // Throws at once for a resourceVersion the store cannot take: the list's 400, not a 500.
      events = this.storage.watch<I>(prefix, {
        resourceVersion,
        bookmarks: q.bookmarks,
        signal: q.signal,
        // The watch handler only encodes the objects (through the encoded cache): every watch of
        // a change gets the one decoded object.
        sharedObjects: true,
        ...(predicate ? { predicate } : {}),
        ...(q.sink ? { sink: q.sink } : {}),
      });
    } catch (err) {
      this.fail(err, '', 'list');
    }
    return q.sendInitialEvents === true ? events : withoutInitialEventsEnd(events);
  }

  /** Translates a storage error seen inside a watch stream into the Status the stream carries. */
  watchError(err: unknown): unknown {
    return interpretStorageError(err, this.qr, '', 'watch');
  }

  private record(
    obj: I,
    current: I | undefined,
    sent: Record<string, unknown>,
    ctx: WriteContext,
    now: Date,
  ): void {
    const operation = ctx.operation ?? 'Update';
    recordManager(obj, baseEntries(obj, current, operation), {
      manager: ctx.fieldManager,
      operation,
      apiVersion: apiVersionOf(this.view),
      now,
      sent,
      force: ctx.force ?? false,
      wireIn: (apiVersion) => {
        const view = this.views.get(apiVersion) ?? this.view;
        return { before: current && view.encode(current), after: view.encode(obj) };
      },
    });
  }

  /** Fills system metadata, validates and stores a new object (kube's BeforeCreate + Store.Create). */
  async create(namespace: string, obj: I, wire: Record<string, unknown>, ctx: WriteContext): Promise<I> {
    const now = this.now();
    const meta = obj.metadata;
    checkCreateNamespace(obj, namespace, this.view.namespaced);
    if (this.view.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    meta.uid = newUid();
    meta.creationTimestamp = rfc3339Seconds(now);
    for (const f of [
      'resourceVersion',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'selfLink',
    ] as const)
      delete meta[f];
    const attrs = this.attributes('CREATE', namespace, meta.name ?? '', obj, undefined, ctx);
    await this.admission.admit(attrs);
    const generated = (meta.name ?? '') === '' && (meta.generateName ?? '') !== '';
    if (generated) meta.name = generateName(meta.generateName ?? '');
    const txn = (await this.hooks?.beginCreate(obj, ctx.dryRun)) ?? NOTHING_RESERVED;
    let stored: I;
    try {
      this.view.prepareForCreate(obj);
      this.invalid(obj, this.view.validateCreate(obj));
      await this.admission.validate({ ...attrs, name: meta.name ?? '' });
      this.record(obj, undefined, wire, ctx, now);
      stored = await this.createStored(namespace, obj, generated, ctx);
    } catch (err) {
      await txn.revert();
      throw err;
    }
    await txn.commit();
    return stored;
  }

  private async createStored(namespace: string, obj: I, generated: boolean, ctx: WriteContext): Promise<I> {
    const meta = obj.metadata;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.storage.create(this.key(namespace, meta.name ?? ''), obj, {
          dryRun: ctx.dryRun,
          ...(this.ttlSeconds !== undefined ? { ttlSeconds: this.ttlSeconds } : {}),
        });
      } catch (err) {
        if (generated && isStorageError(err) && err.code === 'KeyExists') {
          if (attempt >= GENERATE_NAME_ATTEMPTS) throw generateNameConflict(this.qr, meta.name ?? '');
          meta.name = generateName(meta.generateName ?? '');
          continue;
        }
        this.fail(err, meta.name ?? '');
      }
    }
  }

  /**
   * Replaces an object (PUT), or creates it when the view allows create-on-update. `mutate`
   * receives the current object (undefined when missing) and returns the new one with its wire
   * form; patch uses the same path with a mutate that applies the patch.
   */
  async update(
    namespace: string,
    name: string,
    mutate: (current: I | undefined) => { obj: I; wire: Record<string, unknown> },
    ctx: WriteContext,
  ): Promise<{ obj: I; created: boolean }> {
    let created = false;
    let finishing = false;
    // The reservations of the latest try: a try lost to a conflict gives its own back first.
    let txn: WriteTransaction = NOTHING_RESERVED;
    const reserve = async (next: Promise<WriteTransaction> | undefined): Promise<void> => {
      await txn.revert();
      txn = NOTHING_RESERVED;
      txn = (await next) ?? NOTHING_RESERVED;
    };
    const key = this.key(namespace, name);
    try {
      const obj = await this.storage.guaranteedUpdate<I>(
        key,
        async (current) => {
          const { obj, wire } = mutate(current);
          const now = this.now();
          const meta = obj.metadata;
          checkName(obj, name, namespace);
          if (this.view.namespaced) meta.namespace = namespace;
          if (!current) {
            if (!this.view.allowCreateOnUpdate) throw notFound(this.qr, name);
            created = true;
            meta.uid = newUid();
            meta.creationTimestamp = rfc3339Seconds(now);
            delete meta.resourceVersion;
            const attrs = this.attributes('CREATE', namespace, name, obj, undefined, ctx);
            await this.admission.admit(attrs);
            await reserve(this.hooks?.beginCreate(obj, ctx.dryRun));
            this.view.prepareForCreate(obj);
            this.invalid(obj, this.view.validateCreate(obj));
            await this.admission.validate(attrs);
            this.record(obj, undefined, wire, ctx, now);
            return obj;
          }
          created = false;
          const sent = meta.resourceVersion ?? '';
          if (sent !== '' && sent !== current.metadata.resourceVersion) throw conflictModified(this.qr, name);
          if (sent === '' && !this.view.allowUnconditionalUpdate) {
            // Upstream names the qualified resource here, not the kind (leases.coordination.k8s.io "x").
            throw invalid({ group: this.view.group, kind: this.view.resource }, name, [
              invalidValue(path('metadata', 'resourceVersion'), 0, 'must be specified for an update'),
            ]);
          }
          // Clients may leave out what the server set; what they send must match it.
          meta.uid ??= current.metadata.uid;
          meta.creationTimestamp ??= current.metadata.creationTimestamp;
          keepDeletionMarks(obj, current);
          // Metadata update validation compares versions; an unconditional update means "the current one".
          meta.resourceVersion = current.metadata.resourceVersion;
          // Admission sees every try: a retry after a conflict decides on the newer state.
          const attrs = this.attributes('UPDATE', namespace, name, obj, current, ctx);
          await this.admission.admit(attrs);
          await reserve(this.hooks?.beginUpdate(obj, current, ctx.dryRun));
          this.view.prepareForUpdate(obj, current);
          this.invalid(obj, this.view.validateUpdate(obj, current));
          await this.admission.validate(attrs);
          // Recorded first: an apply conflicts, or a new co-owner joins, even when no value changes.
          this.record(obj, current, wire, ctx, now);
          finishing = finishesDeletion(obj, current) && !this.holdsDeletion(obj);
          const entries = (o: I) => o.metadata.managedFields ?? [];
          if (unchangedByUpdate(obj, current) && sameEntries(entries(obj), entries(current))) return current;
          delete meta.resourceVersion;
          return obj;
        },
        {
          ignoreNotFound: true,
          dryRun: ctx.dryRun,
          ...(this.ttlSeconds !== undefined ? { ttlSeconds: this.ttlSeconds } : {}),
        },
      );
      await txn.commit();
      if (finishing && !ctx.dryRun) return { obj: await this.deleteFinished(key, obj), created };
      return { obj, created };
    } catch (err) {
      await txn.revert();
      this.fail(err, name);
    }
  }

  /**
   * The update that removed the last finalizer of an object being deleted is written (watchers
   * see it), then the object is deleted at that version, as the real registry does; the
   * response is the state just written. Someone else finishing it first is no failure.
   */
  private async deleteFinished(key: string, written: I): Promise<I> {
    try {
      const deleted = await this.storage.delete<I>(key, {
        precondition: { resourceVersion: written.metadata.resourceVersion ?? '' },
      });
      await this.hooks?.afterDelete(deleted, false);
      return deleted;
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return written;
      this.fail(err, written.metadata.name ?? '');
    }
  }

  /**
   * Deletes an object, or, when it lists finalizers, marks it as being deleted and keeps it
   * (`pending`) until an update removes the last one. One storage delete decides on the state it
   * is about to delete: a held object refuses it, and is then marked at the version it had, so a
   * concurrent change (a finalizer added or removed) is never missed.
   */
  async delete(namespace: string, name: string, opts: DeleteContext): Promise<{ obj: I; pending: boolean }> {
    await this.admitDelete(namespace, name, opts);
    return this.deleteAdmitted(namespace, name, opts);
  }

  /** Both admission phases of a DELETE. */
  protected async admitDelete(namespace: string, name: string, opts: DeleteContext): Promise<void> {
    if (this.admission.handles('DELETE')) {
      // Storage's delete check is synchronous, and plugins may not be: they decide on the state
      // read here (kube's deleteValidation sees the state being deleted; the plugins Keel runs on
      // deletes decide on names and namespaces, which that state cannot change).
      const current = await this.get(namespace, name);
      const attrs = this.attributes('DELETE', namespace, name, undefined, current, opts);
      await this.admission.admit(attrs);
      await this.admission.validate(attrs);
    }
  }

  /** The delete itself, once admission let it through (see delete). */
  protected async deleteAdmitted(
    namespace: string,
    name: string,
    opts: DeleteContext,
  ): Promise<{ obj: I; pending: boolean }> {
    const key = this.key(namespace, name);
    const gcFinalizers = (obj: I) => deletionFinalizers(obj, opts, this.garbageCollection);
    for (let attempt = 1; ; attempt++) {
      let held: I;
      try {
        const obj = await this.storage.delete<I>(key, {
          dryRun: opts.dryRun,
          validate: (current) => {
            if (opts.preconditions) checkDeletePreconditions(current, this.view.kind, opts.preconditions);
            if (hasFinalizers(current) || gcFinalizers(current).changed) throw new HeldByFinalizers(current);
          },
        });
        await this.hooks?.afterDelete(obj, opts.dryRun);
        return { obj, pending: false };
      } catch (err) {
        if (!(err instanceof HeldByFinalizers)) this.fail(err, name);
        held = err.state as I;
      }
      // The collector's finalizers follow the latest request, even on an object already being
      // deleted (kube's updateForGracefulDeletionAndFinalizers); nothing else changes then.
      const { changed, finalizers } = gcFinalizers(held);
      if (held.metadata.deletionTimestamp && !changed) return { obj: held, pending: true };
      const precondition = { resourceVersion: held.metadata.resourceVersion ?? '' };
      try {
        if (finalizers.length === 0) {
          // The request took off the only finalizer (an orphan one, say): nothing holds it now.
          const obj = await this.storage.delete<I>(key, { dryRun: opts.dryRun, precondition });
          return { obj, pending: false };
        }
        const obj = await this.storage.guaranteedUpdate<I>(
          key,
          (latest) => {
            if (!latest) throw notFound(this.qr, name);
            if (changed) latest.metadata.finalizers = finalizers;
            markDeleting(latest, rfc3339Seconds(this.now()));
            delete latest.metadata.resourceVersion;
            return latest;
          },
          {
            dryRun: opts.dryRun,
            precondition,
            ...(this.ttlSeconds !== undefined ? { ttlSeconds: this.ttlSeconds } : {}),
          },
        );
        return { obj, pending: true };
      } catch (err) {
        // Changed since it was read: decide again on the new state, a bounded number of times.
        if (!isStorageError(err, 'Conflict') || attempt >= DELETE_ATTEMPTS) this.fail(err, name);
      }
    }
  }
}
