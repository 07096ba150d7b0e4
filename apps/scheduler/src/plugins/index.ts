export { newInTreeRegistry } from './default-registry.js';
