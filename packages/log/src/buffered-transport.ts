import winston from 'winston';
import type { BufferedWriter } from './buffered-writer.js';
import { MESSAGE } from './klog-format.js';

type TransportInstance = winston.Logger['transports'][number];
// winston's typings call the transport base class `transport`; at runtime it is exported as `Transport`.
const TransportStream = (winston as unknown as { Transport: new () => TransportInstance }).Transport;

/** The winston transport that hands rendered klog lines to the buffer; error lines are written at once. */
export class BufferedTransport extends TransportStream {
  constructor(private readonly writer: BufferedWriter) {
    super();
  }

  override log(info: winston.Logform.TransformableInfo, next: () => void): void {
    const line = info[MESSAGE];
    if (typeof line === 'string') this.writer.write(line, info.level === 'error');
    next();
  }
}
