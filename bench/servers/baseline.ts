/**
 * Child process: the baseline. A bare Fastify server with one route that reads one client
 * row by primary key through a pg.Pool of the same size as the app's pool; no auth, no
 * schema, no logging. Reports its port over IPC.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { serveChild } from './serve-child';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const pool = new pg.Pool({ connectionString: url, max: poolSize });
pool.on('error', () => {});

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/clients/:id', async (request, reply) => {
  const { rows } = await pool.query('SELECT * FROM clients WHERE id = $1', [request.params.id]);
  if (!rows[0]) return reply.code(404).send({ code: 'not_found' });
  return rows[0];
});
await serveChild(app, () => pool.end(), poolSize);
