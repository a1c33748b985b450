import { BookingPage } from './BookingPage';

/** `/appointments/new-adhoc`: a new ad-hoc appointment of a chosen length. */
export default function NewAdhocAppointmentPage() {
  return <BookingPage kind="adhoc" />;
}
