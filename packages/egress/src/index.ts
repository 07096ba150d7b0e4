export {
  EGRESS_SELECTION_NAMES,
  loadEgressConfig,
  parseEgressConfig,
  type EgressConfig,
  type EgressConnection,
  type EgressSelectionName,
  type ProxyEndpoint,
} from './config.js';
export { httpConnectDialer, joinHostPort, type Dial } from './http-connect.js';
export { EgressSelector } from './selector.js';
export { startLocalForwarder, type LocalForwarder } from './local-forwarder.js';
