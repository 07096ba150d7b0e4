/**
 * Imported first by the scheduler's entry (app.ts), before any module that builds a schema: zod
 * reads the setting when a schema is built. zod compiles an object schema into a function
 * (`new Function`) at its first parse, which pays off for a schema parsed many times; the
 * scheduler parses its configuration and plugin arguments once, at start-up, where compiling cost
 * more than it saved (~10–30 ms of the start-up's CPU, code the V8 code cache cannot hold).
 */
import { config } from 'zod';

config({ jitless: true });
