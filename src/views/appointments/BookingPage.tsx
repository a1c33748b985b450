import { useActorRef } from '@xstate/react';
import { useAppServices } from '../../app/services';
import {
  createAppointmentActor,
  loadCoachesActor,
  loadSlotsActor,
  searchClientsActor,
} from '../../machines/actors/scheduling';
import { bookingMachine, type BookingKind } from '../../machines/appointment-booking.machine';
import { todayInBerlin } from '../../../shared/time';
import { useSchedulingSession } from '../calendar/scheduling-session';
import { BookingView } from './BookingView';

/** Wires the booking machine to the API and the toasts. */
export function BookingPage({ kind }: { kind: BookingKind }) {
  const { api, toasts } = useAppServices();
  const { browserZone, role, ownCoachId } = useSchedulingSession();
  const actorRef = useActorRef(
    bookingMachine.provide({
      actors: {
        loadCoaches: loadCoachesActor(api),
        searchClients: searchClientsActor(api),
        loadSlots: loadSlotsActor(api),
        createAppointment: createAppointmentActor(api),
      },
      actions: {
        notifyBooked: () =>
          toasts.send({ type: 'show', kind: 'success', messageKey: 'scheduling:booking.bookedToast' }),
      },
    }),
    {
      input: {
        kind,
        role,
        ownCoachId,
        today: todayInBerlin(),
      },
    },
  );
  return <BookingView actorRef={actorRef} browserZone={browserZone} />;
}
