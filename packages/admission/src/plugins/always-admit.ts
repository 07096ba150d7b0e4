import type { AdmissionPlugin } from '../plugin.js';

/** AlwaysAdmit: admits everything (deprecated in the real server; kept for its flag). */
export const alwaysAdmit: AdmissionPlugin = {
  name: 'AlwaysAdmit',
  handles: () => true,
  admit: () => undefined,
  validate: () => undefined,
};
