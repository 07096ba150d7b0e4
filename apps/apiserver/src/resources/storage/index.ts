import {
  csiDriverView,
  csiNodeView,
  csiStorageCapacityView,
  persistentVolumeClaimStatusView,
  persistentVolumeClaimView,
  persistentVolumeStatusView,
  persistentVolumeView,
  storageClassView,
} from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';

/**
 * core/v1 PersistentVolumes (`pv`) and PersistentVolumeClaims (`pvc`), each with /status. No
 * binder or provisioner acts on them (docs/resources.md): claims stay Pending until a client
 * binds them by writing spec.volumeName and the status.
 */
export function installVolumes(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, {
      view: persistentVolumeView,
      statusView: persistentVolumeStatusView,
      keyRoot: '/persistentvolumes',
    }).served,
    installStored(dispatcher, storage, defaults, {
      view: persistentVolumeClaimView,
      statusView: persistentVolumeClaimStatusView,
      keyRoot: '/persistentvolumeclaims',
    }).served,
  ];
}

/**
 * storage.k8s.io/v1 StorageClasses (`sc`), CSIDrivers, CSINodes and CSIStorageCapacities, which a
 * scheduler's volume plugins read; nothing in Keel writes them.
 */
export function installStorageGroup(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: storageClassView, keyRoot: '/storageclasses' })
      .served,
    installStored(dispatcher, storage, defaults, { view: csiDriverView, keyRoot: '/csidrivers' }).served,
    installStored(dispatcher, storage, defaults, { view: csiNodeView, keyRoot: '/csinodes' }).served,
    installStored(dispatcher, storage, defaults, {
      view: csiStorageCapacityView,
      keyRoot: '/csistoragecapacities',
    }).served,
  ];
}
