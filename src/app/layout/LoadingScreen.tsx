/** Shown while the first translations load; it has no text because none is loaded yet. */
export function LoadingScreen() {
  return <div className="loading-screen" aria-busy="true" />;
}
