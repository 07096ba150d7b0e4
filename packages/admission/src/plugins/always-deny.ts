import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';

const WHY = 'admission control is denying all modifications';

/** AlwaysDeny: refuses every write, in both phases, with the real server's 403. */
export const alwaysDeny: AdmissionPlugin = {
  name: 'AlwaysDeny',
  handles: () => true,
  admit: (attrs) => {
    throw admissionForbidden(attrs, WHY);
  },
  validate: (attrs) => {
    throw admissionForbidden(attrs, WHY);
  },
};
