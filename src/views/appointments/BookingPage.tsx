import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { useAppServices } from '../../app/services';
import { useSessionStatus } from '../../app/session-hooks';
import {
  createAppointmentActor,
  loadCoachesActor,
  loadSlotsActor,
  searchClientsActor,
} from '../../machines/actors/scheduling';
import { bookingMachine, type BookingKind } from '../../machines/appointment-booking.machine';
import { browserTimeZone, todayInBerlin } from '../../machines/scheduling/time';
import { BookingView } from './BookingView';

/** Wires the booking machine to the API and the toasts. */
export function BookingPage({ kind }: { kind: BookingKind }) {
  const { api, toasts } = useAppServices();
  const status = useSessionStatus();
  const session = status.kind === 'signedIn' ? status.session : null;
  const [browserZone] = useState(browserTimeZone);
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
        role: session?.role ?? 'COACH',
        ownCoachId: session?.coach?.id ?? null,
        today: todayInBerlin(),
      },
    },
  );
  return <BookingView actorRef={actorRef} browserZone={browserZone} />;
}
