/**
 * `npm start` builds the web app in a child process while the server migrates and seeds its
 * database; the server waits here before it registers the built files (server/web/static.ts
 * lists them once, at start). Without a pending build this resolves at once.
 */
let pending: Promise<void> = Promise.resolve();

export function waitForWebBuild(build: Promise<void>): void {
  pending = build;
}

export const webBuildDone = (): Promise<void> => pending;
