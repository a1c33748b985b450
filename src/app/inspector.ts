import type { InspectionEvent, Observer } from 'xstate';

export type InspectOption = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * The `inspect` option for app actors: `createActor(machine, { inspect })`.
 *
 * Attached only in development builds started with `VITE_INSPECT=true` (e.g.
 * `VITE_INSPECT=true npm run dev`); it opens the Stately inspector in a new window. In every
 * other build it is `undefined`. `import.meta.env.DEV` is a compile-time constant, so production
 * bundles drop the branch and with it the dynamic import of @statelyai/inspect.
 */
export const inspect: InspectOption | undefined =
  import.meta.env.DEV && import.meta.env.VITE_INSPECT === 'true'
    ? createDeferredInspect()
    : undefined;

/** Forwards events to the browser inspector, buffering those sent while it is still loading. */
function createDeferredInspect(): (event: InspectionEvent) => void {
  let target: Observer<InspectionEvent> | undefined;
  const buffer: InspectionEvent[] = [];
  if (import.meta.env.DEV) {
    import('@statelyai/inspect')
      .then(({ createBrowserInspector }) => {
        target = createBrowserInspector().inspect;
        for (const event of buffer.splice(0)) target.next?.(event);
      })
      .catch((error: unknown) => {
        console.warn('Stately inspector could not be loaded', error);
        target = { next: () => {} };
        buffer.length = 0;
      });
  }
  return (event) => {
    if (target) target.next?.(event);
    else buffer.push(event);
  };
}
