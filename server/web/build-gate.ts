/**
 * `npm start` builds the web app in a child process while the server migrates and seeds its
 * database; the server waits here before it registers the built files (server/web/static.ts
 * lists them once, at start). Without a pending build this resolves at once.
 *
 * The promise is kept on globalThis: scripts/start.ts sets it from source, while the server
 * it then runs is the bundle in dist/server, which holds its own copy of this module.
 */
const PENDING = Symbol.for('sprechstunde.pendingWebBuild');
const slot = globalThis as { [PENDING]?: Promise<void> };

export function waitForWebBuild(build: Promise<void>): void {
  slot[PENDING] = build;
}

export const webBuildDone = (): Promise<void> => slot[PENDING] ?? Promise.resolve();
