import { BookingPage } from './BookingPage';

/** `/appointments/new`: a new appointment (Erstgespräch, Ersttermin, Folgetermin, …). */
export default function NewAppointmentPage() {
  return <BookingPage kind="regular" />;
}
