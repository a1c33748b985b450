import type { ComponentType } from 'react';
import { HomePage } from '../views/home/HomePage';
import { tKey } from '../i18n/keys';
import { MANAGERS, SUPERADMIN_ONLY, STAFF, type RouteAccess } from './access';
import type { BreadcrumbRoute } from './breadcrumbs';
import { lazyPage, type RoutePageProps } from './lazy-page';

export type { RoutePageProps };

/** A page of the app (specification section 2). */
export interface AppRoute extends BreadcrumbRoute {
  /** The page; like a wouter route component it gets the route's `params`. */
  component: ComponentType<RoutePageProps>;
  /**
   * Who may open it (src/app/access.ts). Unset: open to everyone. Set: the protected wrapper
   * renders it only with a session and an active user (unless `allowInactive`), redirecting to
   * /login or /notactive with `?returnTo=`; `roles` as in specification section 6.
   */
  access?: RouteAccess;
  /** i18n namespaces the page needs besides the start ones; loaded early with its code. */
  namespaces?: readonly string[];
}

// Pages other than the home page load on demand, so /login stays small (bench/web.ts);
// src/app/RoutePreloader.tsx asks for the current one early.
const NotActivePage = lazyPage(() => import('../views/notactive/NotActivePage'));
const ActivatePage = lazyPage(() => import('../views/activate/ActivatePage'));
const HelpPage = lazyPage(() => import('../views/help/HelpPage'));
const SupportPage = lazyPage(() => import('../views/support/SupportPage'));
const DashboardPage = lazyPage(() => import('../views/dashboard/DashboardPage'));
const CalendarPage = lazyPage(() => import('../views/calendar/CalendarPage'));
const AvailabilityPage = lazyPage(() => import('../views/availability/AvailabilityPage'));
const NewAppointmentPage = lazyPage(() => import('../views/appointments/NewAppointmentPage'));
const NewAdhocAppointmentPage = lazyPage(
  () => import('../views/appointments/NewAdhocAppointmentPage'),
);
const ClientMeetingPage = lazyPage(() => import('../views/meeting/ClientMeetingPage'));
const ClientMeetingFinishedPage = lazyPage(() => import('../views/meeting/ClientMeetingFinishedPage'));
const CoachMeetingStartPage = lazyPage(() => import('../views/meeting/CoachMeetingStartPage'));
const CoachMeetingOverviewPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({ default: m.CoachMeetingOverviewPage })),
);
const CoachMeetingJoinPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({ default: m.CoachMeetingJoinPage })),
);
const CoachMeetingFinishedPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({ default: m.CoachMeetingFinishedPage })),
);
const AppointmentsListPage = lazyPage(() => import('../views/appointments-list/AppointmentsListPage'));
const AppointmentsAbcPage = lazyPage(() => import('../views/appointments-list/AppointmentsAbcPage'));
const CancelAppointmentsPage = lazyPage(() => import('../views/appointments-list/CancelAppointmentsPage'));
const AppointmentDetailPage = lazyPage(() => import('../views/appointment-detail/AppointmentDetailPage'));
const AppointmentEditPage = lazyPage(() => import('../views/appointment-detail/AppointmentEditPage'));
const CancelAppointmentPage = lazyPage(() => import('../views/appointment-detail/CancelAppointmentPage'));
const ClientsListPage = lazyPage(() => import('../views/clients/ClientsListPage'));
const ClientNewPage = lazyPage(() => import('../views/clients/ClientNewPage'));
const ClientDetailPage = lazyPage(() => import('../views/clients/ClientDetailPage'));
const ClientEditPage = lazyPage(() => import('../views/clients/ClientEditPage'));
const PreAppointmentPage = lazyPage(() => import('../views/pre-appointment/PreAppointmentPage'));
const CoachesListPage = lazyPage(() => import('../views/coaches/CoachesListPage'));
const CoachNewPage = lazyPage(() => import('../views/coaches/CoachNewPage'));
const CoachDetailPage = lazyPage(() => import('../views/coaches/CoachDetailPage'));
const CoachEditPage = lazyPage(() => import('../views/coaches/CoachEditPage'));
const UsersListPage = lazyPage(() => import('../views/users/UsersListPage'));
const UserNewPage = lazyPage(() => import('../views/users/UserNewPage'));
const UserEditPage = lazyPage(() => import('../views/users/UserEditPage'));
const EventsListPage = lazyPage(() => import('../views/events/EventsListPage'));
const LoginPage = lazyPage(() => import('../views/auth/LoginPage'));
// Client self-service (issue #6): its own chunks, no staff code.
const ClientSignupPage = lazyPage(() => import('../views/client-signup/SignupPage'));
const ClientLoginPage = lazyPage(() => import('../views/client-signup/ClientLoginPage'));
const ClientAppointmentSelectionPage = lazyPage(
  () => import('../views/client-signup/AppointmentSelectionPage'),
);
const ClientCancelPage = lazyPage(() => import('../views/client-signup/CancelPage'));
const ClientReschedulePage = lazyPage(() => import('../views/client-signup/ReschedulePage'));
const ProfilePage = lazyPage(() => import('../views/auth/ProfilePage'));

/**
 * The route table, in matching order. Feature issues add their pages here. The menu shows an
 * item only when its path is a route here (src/app/menu.ts). Unknown paths render the
 * not-found page.
 */
export const routes: readonly AppRoute[] = [
  { path: '/', breadcrumb: tKey('breadcrumbs.home'), component: HomePage },
  // The sign-in widget (issue #4). Open routes: /profile shows its own error screen without a session.
  {
    path: '/login',
    breadcrumb: tKey('auth:pages.staffLogin'),
    component: LoginPage,
    namespaces: ['auth'],
  },
  // Client self-service (issue #6). Open routes: the pages themselves ask a signed-out person
  // to sign in at /client-signup/login (not the staff /login).
  {
    path: '/client-signup',
    breadcrumb: tKey('client:signup.title'),
    component: ClientSignupPage,
    namespaces: ['client', 'auth'],
  },
  {
    path: '/client-signup/login',
    breadcrumb: tKey('auth:pages.clientLogin'),
    component: ClientLoginPage,
    namespaces: ['client', 'auth'],
  },
  {
    path: '/client-signup/appointment-selection',
    breadcrumb: tKey('client:selection.title'),
    component: ClientAppointmentSelectionPage,
    namespaces: ['client'],
  },
  {
    path: '/client-signup/cancel-appointment/:appointmentId',
    breadcrumb: tKey('client:cancel.title'),
    component: ClientCancelPage,
    namespaces: ['client'],
  },
  {
    path: '/client-signup/reschedule-appointment/:appointmentId',
    breadcrumb: tKey('client:reschedule.title'),
    component: ClientReschedulePage,
    namespaces: ['client'],
  },
  {
    path: '/profile',
    breadcrumb: tKey('auth:pages.profile'),
    component: ProfilePage,
    namespaces: ['auth'],
  },
  {
    path: '/notactive',
    breadcrumb: tKey('breadcrumbs.notActive'),
    component: NotActivePage,
    namespaces: ['shell'],
    access: { allowInactive: true },
  },
  {
    path: '/activate',
    breadcrumb: tKey('breadcrumbs.activate'),
    component: ActivatePage,
    namespaces: ['shell'],
    access: { allowInactive: true },
  },
  {
    path: '/help',
    breadcrumb: tKey('breadcrumbs.help'),
    component: HelpPage,
    namespaces: ['shell'],
    access: { roles: STAFF },
  },
  {
    path: '/support',
    breadcrumb: tKey('breadcrumbs.support'),
    component: SupportPage,
    namespaces: ['shell'],
    access: { roles: STAFF },
  },
  {
    path: '/dashboard',
    breadcrumb: tKey('breadcrumbs.dashboard'),
    component: DashboardPage,
    namespaces: ['shell'],
    access: { roles: SUPERADMIN_ONLY },
  },
  // Staff scheduling (issue 5); section 6: calendar, availability and new meetings for staff,
  // new ad-hoc meetings for admins and onboarding managers.
  {
    path: '/calendar',
    breadcrumb: tKey('common:menu.calendar'),
    component: CalendarPage,
    access: { roles: STAFF },
  },
  {
    path: '/availability',
    breadcrumb: tKey('common:menu.availability'),
    component: AvailabilityPage,
    access: { roles: STAFF },
  },
  {
    path: '/appointments/new',
    breadcrumb: tKey('common:menu.newMeeting'),
    component: NewAppointmentPage,
    access: { roles: STAFF },
  },
  {
    path: '/appointments/new-adhoc',
    breadcrumb: tKey('common:menu.newAdhocMeeting'),
    component: NewAdhocAppointmentPage,
    access: { roles: MANAGERS },
  },
  // Video meetings (issue 8): the client's pages are public (the meeting code is the key),
  // the coach's need a staff session.
  {
    path: '/meeting',
    breadcrumb: tKey('meeting:title.client'),
    component: ClientMeetingPage,
    namespaces: ['meeting'],
  },
  {
    path: '/meeting/:meetingCode',
    breadcrumb: tKey('meeting:title.client'),
    component: ClientMeetingPage,
    namespaces: ['meeting'],
  },
  {
    path: '/meetingfinished',
    breadcrumb: tKey('meeting:title.finished'),
    component: ClientMeetingFinishedPage,
    namespaces: ['meeting'],
  },
  {
    path: '/coach/meeting',
    breadcrumb: tKey('meeting:title.coachStart'),
    component: CoachMeetingStartPage,
    namespaces: ['meeting'],
    access: { roles: STAFF },
  },
  {
    path: '/coach/meeting/:meetingCode',
    breadcrumb: tKey('meeting:title.overview'),
    component: CoachMeetingOverviewPage,
    namespaces: ['meeting'],
    access: { roles: STAFF },
  },
  {
    path: '/coach/meeting/:meetingCode/join',
    breadcrumb: tKey('meeting:title.room'),
    component: CoachMeetingJoinPage,
    namespaces: ['meeting'],
    access: { roles: STAFF },
  },
  {
    path: '/coach/meeting/:meetingCode/finished',
    breadcrumb: tKey('meeting:title.finished'),
    component: CoachMeetingFinishedPage,
    namespaces: ['meeting'],
    access: { roles: STAFF },
  },
  // Staff workspace (issue 7): appointments and clients. After /appointments/new*, which the
  // scheduling screens own; `abc` before the id pattern.
  staffRoute('/appointments', tKey('staff:breadcrumbs.appointments'), AppointmentsListPage, STAFF),
  staffRoute('/appointments/abc', tKey('staff:breadcrumbs.appointments'), AppointmentsAbcPage, STAFF),
  staffRoute('/appointments/:appointmentId', tKey('staff:breadcrumbs.appointment'), AppointmentDetailPage, STAFF),
  staffRoute('/appointments/:appointmentId/edit', tKey('staff:breadcrumbs.edit'), AppointmentEditPage, STAFF),
  staffRoute('/cancel-appointment', tKey('staff:breadcrumbs.cancelAppointment'), CancelAppointmentsPage, STAFF),
  staffRoute('/cancel-appointment/:appointmentId', tKey('staff:breadcrumbs.appointment'), CancelAppointmentPage, STAFF),
  staffRoute('/clients', tKey('staff:breadcrumbs.clients'), ClientsListPage, STAFF),
  staffRoute('/clients/new', tKey('staff:breadcrumbs.newClient'), ClientNewPage, MANAGERS),
  staffRoute('/clients/:clientId', tKey('staff:breadcrumbs.client'), ClientDetailPage, STAFF),
  staffRoute('/clients/:clientId/edit', tKey('staff:breadcrumbs.edit'), ClientEditPage, STAFF),
  staffRoute('/pre-appointment/new', tKey('staff:breadcrumbs.preAppointment'), PreAppointmentPage, MANAGERS),
  // Staff workspace part 2: coaches, users and events (section 6: admins and onboarding managers).
  staffRoute('/coaches', tKey('staff:breadcrumbs.coaches'), CoachesListPage, MANAGERS),
  staffRoute('/coaches/new', tKey('staff:breadcrumbs.newCoach'), CoachNewPage, MANAGERS),
  staffRoute('/coaches/:coachId', tKey('staff:breadcrumbs.coach'), CoachDetailPage, MANAGERS),
  staffRoute('/coaches/:coachId/edit', tKey('staff:breadcrumbs.edit'), CoachEditPage, MANAGERS),
  staffRoute('/users', tKey('staff:breadcrumbs.users'), UsersListPage, MANAGERS),
  staffRoute('/users/new', tKey('staff:breadcrumbs.newUser'), UserNewPage, MANAGERS),
  staffRoute('/users/:userId/edit', tKey('staff:breadcrumbs.edit'), UserEditPage, MANAGERS),
  staffRoute('/events', tKey('staff:breadcrumbs.events'), EventsListPage, MANAGERS),
];

/** A staff workspace page: its translations load with its code. */
function staffRoute(
  path: string,
  breadcrumb: string,
  component: AppRoute['component'],
  roles: RouteAccess['roles'],
): AppRoute {
  return { path, breadcrumb, component, namespaces: ['staff'], access: { roles } };
}

/** The route patterns, for the data-driven menu. */
export const routePatterns = (): string[] => routes.map((r) => r.path);
