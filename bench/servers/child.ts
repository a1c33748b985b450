import { fork, type ChildProcess } from 'node:child_process';

/**
 * Starts a benchmark server in a child process of its own (one event loop each: the load
 * generator or browser driver in the parent never competes with the server for it) and waits
 * for its first IPC message, which names where it listens.
 */
export function startChild<Message>(
  file: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; message: Message }> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // A loaded machine compiles the server slowly: BENCH_START_TIMEOUT_MS gives it longer.
    const limit = Number(process.env.BENCH_START_TIMEOUT_MS ?? 60_000);
    const timer = setTimeout(
      () => reject(new Error(`${file} did not start within ${Math.round(limit / 1000)} s`)),
      limit,
    );
    child.once('message', (message: Message) => {
      clearTimeout(timer);
      resolve({ child, message });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with code ${code}`));
    });
  });
}

/** SIGTERM, then SIGKILL after 5 s. */
export function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
