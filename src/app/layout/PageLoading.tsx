/** Shown while a page's code or translations load, inside the shell. */
export function PageLoading() {
  return <div className="page-loading" aria-busy="true" />;
}
