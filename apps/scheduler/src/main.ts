#!/usr/bin/env node
import { exitWhenDone } from '@keel/lifecycle';
import { main } from './app.js';

exitWhenDone(await main(process.argv.slice(2)));
