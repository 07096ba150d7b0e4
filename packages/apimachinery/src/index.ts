export { keelVersion, platformVersion, versionInfo, buildInfo, type VersionInfo } from './version.js';
