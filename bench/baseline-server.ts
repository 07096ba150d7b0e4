/**
 * The benchmark's baselines, run as their own process like the daemon: a bare Node HTTPS server
 * and an Express HTTPS server answering every request with the same fixed JSON body after reading
 * the request body. `node --import tsx bench/baseline-server.ts <bare|express> <port> <cert> <key>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import express from 'express';

const [kind, portText, certFile, keyFile] = process.argv.slice(2);
const body =
  JSON.stringify({
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: {
      name: 'bench-abcde',
      namespace: 'default',
      uid: '3f1e6c2a-0000-4000-8000-000000000000',
      resourceVersion: '1',
      creationTimestamp: '2026-11-21T00:00:00Z',
    },
    eventTime: '2026-11-21T00:00:00.000000Z',
    reason: 'Bench',
    note: 'a benchmark event',
    type: 'Normal',
  }) + '\n';
const tls = { cert: readFileSync(certFile ?? ''), key: readFileSync(keyFile ?? '') };

if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req, res) => {
    req.resume();
    req.on('end', () => res.status(201).type('application/json').send(body));
  });
  createServer(tls, app).listen(Number(portText), '127.0.0.1', () => console.log('ready'));
} else {
  createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  }).listen(Number(portText), '127.0.0.1', () => console.log('ready'));
}
