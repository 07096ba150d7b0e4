export { ConfigFileError, readConfigDocument } from './read.js';
export { describeZodIssues, parseConfig } from './describe.js';
