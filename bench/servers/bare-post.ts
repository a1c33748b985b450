/**
 * Child process of bench/auth.ts and of the booking race (bench/scheduling.ts): the bare
 * floor. Fastify with no plugins, hooks, schema or logging, answering a tiny JSON POST without
 * any database: what one HTTP round trip costs on this machine, below anything the app or the
 * provider adds. Reports its port over IPC.
 */
import Fastify from 'fastify';
import { serveChild } from './serve-child';

const app = Fastify({ logger: false });
app.post('/floor', async () => ({ ok: true }));
await serveChild(app, async () => {}, 0);
