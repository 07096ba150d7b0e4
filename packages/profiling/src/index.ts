export { serveProfiling, type ProfilingSettings } from './pprof.js';
