import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's PostgreSQL server binaries live (PG_BIN overrides). */
export const postgresBin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a throwaway cluster cannot be made here, or null when it can. */
export function scratchPostgresUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(path.join(postgresBin, tool))) {
      return `no ${tool} in ${postgresBin} (install postgresql-15 or set PG_BIN)`;
    }
  }
  return null;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface ScratchPostgres {
  port: number;
  /** Connection string of a database on this cluster (user postgres, trust auth). */
  url(database?: string): string;
  /** pg_ctl restart: `fast` ends sessions cleanly (57P01), `immediate` drops them like a crash. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of its own in a temporary directory, on a free port, so a test may stop
 * and restart it without touching the shared server. initdb refuses to run as root: as root
 * (CI) the tools run as the `postgres` user, who owns the directory.
 */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const unavailable = scratchPostgresUnavailable();
  if (unavailable) throw new Error(unavailable);
  const dir = mkdtempSync(path.join(tmpdir(), 'spr-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(postgresBin, name), ...args])
      : run(path.join(postgresBin, name), args);
  const port = await freePort();
  await tool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const ctl = (args: string[]) => tool('pg_ctl', ['-D', data, '-w', '-t', '60', ...args]);
  const start = async () => {
    await ctl(['-l', path.join(dir, 'log'), '-o', options, 'start']);
  };
  await start();
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    restart: async (mode = 'fast') => {
      await ctl(['-m', mode, '-l', path.join(dir, 'log'), '-o', options, 'restart']);
    },
    stop: async (mode = 'fast') => {
      await ctl(['-m', mode, 'stop']);
    },
    start,
    destroy: async () => {
      await ctl(['-m', 'immediate', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
