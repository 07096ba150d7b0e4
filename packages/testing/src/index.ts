export { runNode, DaemonProcess, type ProcessResult } from './process.js';
export { specOptions, specPath } from './spec-options.js';
