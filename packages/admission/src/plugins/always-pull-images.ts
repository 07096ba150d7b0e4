/**
 * AlwaysPullImages (kube's plugin/pkg/admission/alwayspullimages): every container of a new or
 * changed pod pulls its image, so a pod cannot use an image cached on its node that its owner
 * could not pull. An update that brings no image the pod did not already use is left alone.
 */
import { fieldErrorString, notSupported } from '@keel/apimachinery';
import type { Pod } from '@keel/coreapi';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { allContainers, oldPodOf, podOf } from './pods.js';

/** Whether an update only keeps or drops images the old pod already named. */
function noNewImages(attrs: AdmissionAttributes, pod: Pod): boolean {
  if (attrs.operation !== 'UPDATE') return false;
  const old = oldPodOf(attrs);
  if (!old) return false;
  const before = new Set(allContainers(old).map(({ container }) => container.image ?? ''));
  return allContainers(pod).every(({ container }) => before.has(container.image ?? ''));
}

function concernedPod(attrs: AdmissionAttributes): Pod | undefined {
  const pod = podOf(attrs);
  return pod && !noNewImages(attrs, pod) ? pod : undefined;
}

export const alwaysPullImages: AdmissionPlugin = {
  name: 'AlwaysPullImages',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  admit(attrs) {
    const pod = concernedPod(attrs);
    if (!pod) return;
    for (const { container } of allContainers(pod)) container.imagePullPolicy = 'Always';
  },
  // A later mutating step could have changed the policy again; the real plugin refuses that.
  validate(attrs) {
    const pod = concernedPod(attrs);
    if (!pod) return;
    // Go aggregates one refusal per container; the first is what a client acts on.
    const wrong = allContainers(pod).find(({ container }) => container.imagePullPolicy !== 'Always');
    if (!wrong) return;
    const err = notSupported(`${wrong.path}.imagePullPolicy`, wrong.container.imagePullPolicy ?? '', [
      'Always',
    ]);
    throw admissionForbidden(attrs, fieldErrorString(err));
  },
};
