export { EncryptionConfig, loadEncryptionConfig, parseEncryptionConfig } from './config.js';
