export { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './control-plane.js';
export type { DaemonName, LineSink } from './daemon.js';
