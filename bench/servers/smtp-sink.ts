/**
 * Child process of bench/mail-drain.ts: a local SMTP sink (smtp-server, no TLS, no auth) that
 * accepts every mail and only counts them. Reports its port over IPC, and answers a `count`
 * message with the number received so far.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let received = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // A pooled sender keeps several connections open at once.
  maxClients: 100,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received++;
      callback();
    });
  },
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
process.send!({ port: (sink.server.address() as AddressInfo).port });
process.on('message', (message) => {
  if (message === 'count') process.send!({ received });
});
process.on('SIGTERM', () => sink.close(() => process.exit(0)));
