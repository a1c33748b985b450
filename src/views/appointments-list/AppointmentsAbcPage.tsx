import { Redirect, useSearch } from 'wouter';

/**
 * `/appointments/abc`: the specification lists this child route without a purpose. It is kept as an
 * alias of the list (docs/decisions/0067-deviations-from-the-specification.md), so old links land
 * there.
 */
export default function AppointmentsAbcPage() {
  const search = useSearch();
  return <Redirect to={`/appointments${search ? `?${search}` : ''}`} replace />;
}
