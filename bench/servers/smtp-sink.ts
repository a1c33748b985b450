/**
 * Child process of bench/mail-drain.ts: a local SMTP sink (smtp-server, no TLS, no auth) that
 * accepts every mail and only counts them (in all, and by Message-ID: `duplicates` are mails
 * whose Message-ID came before). Listens on SMTP_SINK_PORT (default any free port), reports
 * its port over IPC, and answers a `count` message with the counts so far.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let received = 0;
let duplicates = 0;
const seen = new Set<string>();
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // A pooled sender keeps several connections open at once.
  maxClients: 100,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      if (head.length < 4096) head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      received++;
      const id = /^message-id:\s*(\S+)/im.exec(head)?.[1];
      if (id && seen.has(id)) duplicates++;
      if (id) seen.add(id);
      callback();
    });
  },
});
await new Promise<void>((resolve) =>
  sink.listen(Number(process.env.SMTP_SINK_PORT ?? 0), '127.0.0.1', resolve),
);
process.send!({ port: (sink.server.address() as AddressInfo).port });
process.on('message', (message) => {
  if (message === 'count') process.send!({ received, duplicates });
});
process.on('SIGTERM', () => sink.close(() => process.exit(0)));
