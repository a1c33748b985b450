import { createElement, type ComponentType } from 'react';
import { StartPage } from '../views/home/StartPage';
import { tKey } from '../i18n/keys';
import { ADMIN_ONLY, MANAGERS, SUPERADMIN_ONLY, STAFF, type RouteAccess } from './access';
import type { BreadcrumbRoute } from './breadcrumbs';
import { lazyPage, type RoutePageProps } from './lazy-page';

export type { RoutePageProps };

/** A page of the app (the specification's screens and routes). */
export interface AppRoute extends BreadcrumbRoute {
  /** The page; like a wouter route component it gets the route's `params`. */
  component: ComponentType<RoutePageProps>;
  /**
   * Who may open it (src/app/access.ts). Unset: open to everyone. Set: the protected wrapper
   * renders it only with a session and an active user (unless `allowInactive`), redirecting to
   * /login or /notactive with `?returnTo=`; `roles` as in the specification's roles and
   * permissions.
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
const TodayPage = lazyPage(() => import('../views/today/TodayPage'));
const CalendarPage = lazyPage(() => import('../views/calendar/CalendarPage'));
const InitialCalendarPage = lazyPage(() => import('../views/calendar/InitialCalendarPage'));
const AvailabilityPage = lazyPage(() => import('../views/availability/AvailabilityPage'));
const NewAppointmentPage = lazyPage(() => import('../views/appointments/NewAppointmentPage'));
const NewAdhocAppointmentPage = lazyPage(
  () => import('../views/appointments/NewAdhocAppointmentPage'),
);
const ClientMeetingPage = lazyPage(() => import('../views/meeting/ClientMeetingPage'));
const ClientMeetingFinishedPage = lazyPage(
  () => import('../views/meeting/ClientMeetingFinishedPage'),
);
const CoachMeetingStartPage = lazyPage(() => import('../views/meeting/CoachMeetingStartPage'));
const CoachMeetingOverviewPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({
    default: m.CoachMeetingOverviewPage,
  })),
);
const CoachMeetingJoinPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({ default: m.CoachMeetingJoinPage })),
);
const CoachMeetingFinishedPage = lazyPage(() =>
  import('../views/meeting/CoachMeetingPage').then((m) => ({
    default: m.CoachMeetingFinishedPage,
  })),
);
const AppointmentsListPage = lazyPage(
  () => import('../views/appointments-list/AppointmentsListPage'),
);
const AppointmentsAbcPage = lazyPage(
  () => import('../views/appointments-list/AppointmentsAbcPage'),
);
const CancelAppointmentsPage = lazyPage(
  () => import('../views/appointments-list/CancelAppointmentsPage'),
);
const AppointmentDetailPage = lazyPage(
  () => import('../views/appointment-detail/AppointmentDetailPage'),
);
const AppointmentEditPage = lazyPage(
  () => import('../views/appointment-detail/AppointmentEditPage'),
);
const CancelAppointmentPage = lazyPage(
  () => import('../views/appointment-detail/CancelAppointmentPage'),
);
const ClientsListPage = lazyPage(() => import('../views/clients/ClientsListPage'));
const ClientNewPage = lazyPage(() => import('../views/clients/ClientNewPage'));
const ClientDetailPage = lazyPage(() => import('../views/clients/ClientDetailPage'));
const ClientEditPage = lazyPage(() => import('../views/clients/ClientEditPage'));
const SummaryEditorPage = lazyPage(() => import('../views/clinical/SummaryEditorPage'));
const PatientCardPage = lazyPage(() => import('../views/clinical/PatientCardPage'));
const PreAppointmentPage = lazyPage(() => import('../views/pre-appointment/PreAppointmentPage'));
const CoachesListPage = lazyPage(() => import('../views/coaches/CoachesListPage'));
const CoachNewPage = lazyPage(() => import('../views/coaches/CoachNewPage'));
const CoachDetailPage = lazyPage(() => import('../views/coaches/CoachDetailPage'));
const CoachEditPage = lazyPage(() => import('../views/coaches/CoachEditPage'));
const UsersListPage = lazyPage(() => import('../views/users/UsersListPage'));
const UserNewPage = lazyPage(() => import('../views/users/UserNewPage'));
const UserEditPage = lazyPage(() => import('../views/users/UserEditPage'));
const FailedMessagesPage = lazyPage(() => import('../views/messages/FailedMessagesPage'));
const EventsListPage = lazyPage(() => import('../views/events/EventsListPage'));
const BillingPage = lazyPage(() => import('../views/billing/BillingPage'));
const ReviewPage = lazyPage(() => import('../views/review/ReviewPage'));
const LoginPage = lazyPage(() => import('../views/auth/LoginPage'));
// Client self-service: its own chunks, no staff code.
const ClientSignupPage = lazyPage(() => import('../views/client-signup/SignupPage'));
const ClientLoginPage = lazyPage(() => import('../views/client-signup/ClientLoginPage'));
const ClientOverviewPage = lazyPage(() => import('../views/client-signup/ClientOverviewPage'));
const ClientDocumentsPage = lazyPage(() => import('../views/client-signup/DocumentsPage'));
const ClientAppointmentSelectionPage = lazyPage(
  () => import('../views/client-signup/AppointmentSelectionPage'),
);
const ClientCancelPage = lazyPage(() => import('../views/client-signup/CancelPage'));
const ClientReschedulePage = lazyPage(() => import('../views/client-signup/ReschedulePage'));
const ProfilePage = lazyPage(() => import('../views/auth/ProfilePage'));
const MailingListPage = lazyPage(() => import('../views/mailing-list/MailingListPage'));
const InvoicesPage = lazyPage(() => import('../views/invoices/InvoicesPage'));
const InvoiceDetailPage = lazyPage(() => import('../views/invoices/InvoiceDetailPage'));
const BillingRulesPage = lazyPage(() => import('../views/billing-rules/BillingRulesPage'));
const BillingRuleNewPage = lazyPage(() =>
  import('../views/billing-rules/BillingRuleFormPage').then((m) => ({
    default: m.BillingRuleNewPage,
  })),
);
const BillingRuleEditPage = lazyPage(() =>
  import('../views/billing-rules/BillingRuleFormPage').then((m) => ({
    default: m.BillingRuleEditPage,
  })),
);
const InsurersListPage = lazyPage(() => import('../views/catalog/InsurersListPage'));
const InsurerNewPage = lazyPage(() => import('../views/catalog/InsurerNewPage'));
const InsurerEditPage = lazyPage(() => import('../views/catalog/InsurerEditPage'));
const CampaignsListPage = lazyPage(() => import('../views/catalog/CampaignsListPage'));
const CampaignNewPage = lazyPage(() => import('../views/catalog/CampaignNewPage'));
const CampaignEditPage = lazyPage(() => import('../views/catalog/CampaignEditPage'));
// The superadmin area. The hub gets the route patterns: it lists only the admin
// pages this table has.
const AdminHubPage = lazyPage(() =>
  import('../views/admin/AdminHubPage').then((m) => ({
    default: (props: RoutePageProps) =>
      createElement(m.default, { ...props, routes: routePatterns() }),
  })),
);
const WebhooksPage = lazyPage(() => import('../views/admin/WebhooksPage'));
const WebhookDetailPage = lazyPage(() => import('../views/admin/WebhookDetailPage'));
const EmailSyncPage = lazyPage(() => import('../views/admin/EmailSyncPage'));
const ResearchExportPage = lazyPage(() => import('../views/admin/ResearchExportPage'));
// The legal pages and the practice settings they are filled from.
const ImprintPage = lazyPage(() =>
  import('../views/legal/LegalPages').then((m) => ({ default: m.ImprintPage })),
);
const PrivacyPage = lazyPage(() =>
  import('../views/legal/LegalPages').then((m) => ({ default: m.PrivacyPage })),
);
const PracticeSettingsPage = lazyPage(() => import('../views/admin/PracticeSettingsPage'));

/** What a group of pages shares: the translations that load with their code, who may open them. */
type PageOptions = Pick<AppRoute, 'namespaces' | 'access'>;

function page(
  path: string,
  breadcrumb: string,
  component: AppRoute['component'],
  options: PageOptions = {},
): AppRoute {
  return { path, breadcrumb, component, ...options };
}

const SIGN_IN: PageOptions = { namespaces: ['auth'] };
const CLIENT_SIGN_IN: PageOptions = { namespaces: ['client', 'auth'] };
const CLIENT: PageOptions = { namespaces: ['client'] };
const MEETING: PageOptions = { namespaces: ['meeting'] };
/** "Heute": the shell's overview and the staff workspace's words (appointment types). */
const WORK_START: PageOptions = { namespaces: ['shell', 'staff'], access: { roles: STAFF } };
const shell = (access: RouteAccess): PageOptions => ({ namespaces: ['shell'], access });
const scheduling = (roles: RouteAccess['roles']): PageOptions => ({ access: { roles } });
const coachMeeting: PageOptions = { namespaces: ['meeting'], access: { roles: STAFF } };
/** A staff workspace page: its translations load with its code. */
const staff = (roles: RouteAccess['roles']): PageOptions => ({
  namespaces: ['staff'],
  access: { roles },
});
/** The client pages: the staff words and the catalogue's (insurer and campaign choices, erasure). */
const clientPages = (roles: RouteAccess['roles']): PageOptions => ({
  namespaces: ['staff', 'catalog'],
  access: { roles },
});
/** The maintained lists: admins (and superadmins). */
const CATALOG: PageOptions = { namespaces: ['catalog', 'staff'], access: { roles: ADMIN_ONLY } };
const ADMIN_AREA: PageOptions = { namespaces: ['admin'], access: { roles: SUPERADMIN_ONLY } };
/** The hub: admins find the mailing list and the maintained lists there too. */
const ADMIN_HUB: PageOptions = { namespaces: ['admin', 'staff'], access: { roles: ADMIN_ONLY } };
/** The research export: admins (and superadmins), like its operations. */
const RESEARCH: PageOptions = { namespaces: ['admin'], access: { roles: ADMIN_ONLY } };
const INVOICES: PageOptions = { namespaces: ['invoices', 'staff'], access: { roles: ADMIN_ONLY } };
/** Clinical content: the client's coach and admins; onboarding managers see statuses only. */
const CLINICAL: PageOptions = {
  namespaces: ['clinical', 'staff'],
  access: { roles: ['COACH', 'ADMIN', 'SUPERADMIN'] },
};
/** The detail pages that show the clinical documents' statuses. */
const WITH_CLINICAL: PageOptions = { namespaces: ['staff', 'clinical'], access: { roles: STAFF } };
const LEGAL: PageOptions = { namespaces: ['legal'] };
const PRACTICE_SETTINGS: PageOptions = {
  namespaces: ['admin', 'staff', 'catalog', 'legal'],
  access: { roles: SUPERADMIN_ONLY },
};
const BILLING_RULES: PageOptions = {
  namespaces: ['billingRules', 'staff', 'catalog'],
  access: { roles: ADMIN_ONLY },
};

/**
 * The route table, in matching order. Feature issues add their pages here. The menu shows an
 * item only when its path is a route here (src/app/menu.ts). Unknown paths render the
 * not-found page.
 */
export const routes: readonly AppRoute[] = [
  page('/', tKey('breadcrumbs.home'), StartPage),
  // The sign-in widget. Open routes: /profile shows its own error screen without a session.
  page('/login', tKey('auth:pages.staffLogin'), LoginPage, SIGN_IN),
  // Client self-service. Open routes: the pages themselves ask a signed-out person
  // to sign in at /client-signup/login (not the staff /login).
  page('/client-signup', tKey('client:signup.title'), ClientSignupPage, CLIENT_SIGN_IN),
  page('/client-signup/login', tKey('auth:pages.clientLogin'), ClientLoginPage, CLIENT_SIGN_IN),
  // "Mein Termin": the client's own area; /client-signup/login leads a signed-in
  // client here.
  page('/mein-termin', tKey('common:header.myAppointment'), ClientOverviewPage, CLIENT),
  // The client's own signed documents, read-only (the card's field names come from clinical).
  page('/mein-termin/dokumente', tKey('client:documents.title'), ClientDocumentsPage, {
    namespaces: ['client', 'clinical'],
  }),
  page(
    '/client-signup/appointment-selection',
    tKey('client:selection.title'),
    ClientAppointmentSelectionPage,
    CLIENT,
  ),
  page(
    '/client-signup/cancel-appointment/:appointmentId',
    tKey('client:cancel.title'),
    ClientCancelPage,
    CLIENT,
  ),
  page(
    '/client-signup/reschedule-appointment/:appointmentId',
    tKey('client:reschedule.title'),
    ClientReschedulePage,
    CLIENT,
  ),
  // A coach's profile also offers the calendar subscription (its words, the staff error messages).
  page('/profile', tKey('auth:pages.profile'), ProfilePage, {
    namespaces: ['auth', 'scheduling', 'staff'],
  }),
  page('/notactive', tKey('breadcrumbs.notActive'), NotActivePage, shell({ allowInactive: true })),
  // Open: the invitation mail's link registers a signed-out staff member first.
  page('/activate', tKey('breadcrumbs.activate'), ActivatePage, { namespaces: ['shell', 'auth'] }),
  page('/help', tKey('breadcrumbs.help'), HelpPage, shell({ roles: STAFF })),
  page('/support', tKey('breadcrumbs.support'), SupportPage, shell({ roles: STAFF })),
  page(
    '/dashboard',
    tKey('breadcrumbs.dashboard'),
    DashboardPage,
    shell({ roles: SUPERADMIN_ONLY }),
  ),
  // Where staff land after signing in: the day's appointments and what waits.
  page('/today', tKey('breadcrumbs.today'), TodayPage, WORK_START),
  // Staff scheduling; by the specification's roles and permissions: calendar, availability and new
  // meetings for staff, new ad-hoc meetings for admins and onboarding managers.
  page('/calendar', tKey('common:menu.calendar'), CalendarPage, scheduling(STAFF)),
  page(
    '/calendar/initial-meetings',
    tKey('common:menu.initialCalendar'),
    InitialCalendarPage,
    scheduling(MANAGERS),
  ),
  page('/availability', tKey('common:menu.availability'), AvailabilityPage, scheduling(STAFF)),
  page('/appointments/new', tKey('common:menu.newMeeting'), NewAppointmentPage, scheduling(STAFF)),
  page(
    '/appointments/new-adhoc',
    tKey('common:menu.newAdhocMeeting'),
    NewAdhocAppointmentPage,
    scheduling(MANAGERS),
  ),
  // Video meetings: the client's pages are public (the meeting code is the key),
  // the coach's need a staff session.
  page('/meeting', tKey('meeting:title.client'), ClientMeetingPage, MEETING),
  page('/meeting/:meetingCode', tKey('meeting:title.client'), ClientMeetingPage, MEETING),
  page('/meetingfinished', tKey('meeting:title.finished'), ClientMeetingFinishedPage, MEETING),
  page('/coach/meeting', tKey('meeting:title.coachStart'), CoachMeetingStartPage, coachMeeting),
  page(
    '/coach/meeting/:meetingCode',
    tKey('meeting:title.overview'),
    CoachMeetingOverviewPage,
    coachMeeting,
  ),
  page(
    '/coach/meeting/:meetingCode/join',
    tKey('meeting:title.room'),
    CoachMeetingJoinPage,
    coachMeeting,
  ),
  page(
    '/coach/meeting/:meetingCode/finished',
    tKey('meeting:title.finished'),
    CoachMeetingFinishedPage,
    coachMeeting,
  ),
  // Staff workspace: appointments and clients. After /appointments/new*, which the
  // scheduling screens own; `abc` before the id pattern.
  page('/appointments', tKey('staff:breadcrumbs.appointments'), AppointmentsListPage, staff(STAFF)),
  page(
    '/appointments/abc',
    tKey('staff:breadcrumbs.appointments'),
    AppointmentsAbcPage,
    staff(STAFF),
  ),
  page(
    '/appointments/:appointmentId',
    tKey('staff:breadcrumbs.appointment'),
    AppointmentDetailPage,
    WITH_CLINICAL,
  ),
  page(
    '/appointments/:appointmentId/edit',
    tKey('staff:breadcrumbs.edit'),
    AppointmentEditPage,
    staff(STAFF),
  ),
  page(
    '/appointments/:appointmentId/summary',
    tKey('clinical:breadcrumbs.summary'),
    SummaryEditorPage,
    CLINICAL,
  ),
  page(
    '/cancel-appointment',
    tKey('staff:breadcrumbs.cancelAppointment'),
    CancelAppointmentsPage,
    staff(STAFF),
  ),
  page(
    '/cancel-appointment/:appointmentId',
    tKey('staff:breadcrumbs.appointment'),
    CancelAppointmentPage,
    staff(STAFF),
  ),
  page('/clients', tKey('staff:breadcrumbs.clients'), ClientsListPage, staff(STAFF)),
  page('/clients/new', tKey('staff:breadcrumbs.newClient'), ClientNewPage, clientPages(MANAGERS)),
  page('/clients/:clientId', tKey('staff:breadcrumbs.client'), ClientDetailPage, {
    ...clientPages(STAFF),
    namespaces: ['staff', 'catalog', 'clinical'],
  }),
  page(
    '/clients/:clientId/edit',
    tKey('staff:breadcrumbs.edit'),
    ClientEditPage,
    clientPages(STAFF),
  ),
  page(
    '/clients/:clientId/patient-card',
    tKey('clinical:breadcrumbs.patientCard'),
    PatientCardPage,
    CLINICAL,
  ),
  page(
    '/pre-appointment/new',
    tKey('staff:breadcrumbs.preAppointment'),
    PreAppointmentPage,
    clientPages(MANAGERS),
  ),
  // Staff workspace part 2: coaches, users and events (admins and onboarding managers, by the
  // specification's roles).
  page('/coaches', tKey('staff:breadcrumbs.coaches'), CoachesListPage, staff(MANAGERS)),
  page('/coaches/new', tKey('staff:breadcrumbs.newCoach'), CoachNewPage, staff(MANAGERS)),
  page('/coaches/:coachId', tKey('staff:breadcrumbs.coach'), CoachDetailPage, staff(MANAGERS)),
  page('/coaches/:coachId/edit', tKey('staff:breadcrumbs.edit'), CoachEditPage, staff(MANAGERS)),
  page('/users', tKey('staff:breadcrumbs.users'), UsersListPage, staff(MANAGERS)),
  page('/users/new', tKey('staff:breadcrumbs.newUser'), UserNewPage, staff(MANAGERS)),
  page('/users/:userId/edit', tKey('staff:breadcrumbs.edit'), UserEditPage, staff(MANAGERS)),
  page('/events', tKey('staff:breadcrumbs.events'), EventsListPage, staff(MANAGERS)),
  page(
    '/messages/failed',
    tKey('staff:breadcrumbs.failedMessages'),
    FailedMessagesPage,
    staff(MANAGERS),
  ),
  // Billing: every staff role reads (coaches their clients' items), admins act.
  // ('invoices' for the admins' link to the invoices.)
  page('/billing', tKey('common:menu.billing'), BillingPage, {
    namespaces: ['staff', 'invoices'],
    access: { roles: STAFF },
  }),
  // Review: coaches see their own documentation, managers everyone's and complete it.
  page('/review', tKey('common:menu.review'), ReviewPage, {
    namespaces: ['review', 'staff'],
    access: { roles: STAFF },
  }),
  // Invoices: admins (and superadmins), as the contract's x-roles say.
  page('/billing/invoices', tKey('invoices:breadcrumbs.invoices'), InvoicesPage, INVOICES),
  page(
    '/billing/invoices/:invoiceId',
    tKey('invoices:breadcrumbs.invoice'),
    InvoiceDetailPage,
    INVOICES,
  ),
  // Billing rules: admins (and superadmins).
  page('/billing/rules', tKey('billingRules:breadcrumbs.rules'), BillingRulesPage, BILLING_RULES),
  page(
    '/billing/rules/new',
    tKey('billingRules:breadcrumbs.new'),
    BillingRuleNewPage,
    BILLING_RULES,
  ),
  page(
    '/billing/rules/:ruleId/edit',
    tKey('billingRules:breadcrumbs.edit'),
    BillingRuleEditPage,
    BILLING_RULES,
  ),
  page('/admin/insurers', tKey('catalog:breadcrumbs.insurers'), InsurersListPage, CATALOG),
  page('/admin/insurers/new', tKey('catalog:breadcrumbs.newInsurer'), InsurerNewPage, CATALOG),
  page('/admin/insurers/:id/edit', tKey('catalog:breadcrumbs.edit'), InsurerEditPage, CATALOG),
  page('/admin/campaigns', tKey('catalog:breadcrumbs.campaigns'), CampaignsListPage, CATALOG),
  page('/admin/campaigns/new', tKey('catalog:breadcrumbs.newCampaign'), CampaignNewPage, CATALOG),
  page('/admin/campaigns/:id/edit', tKey('catalog:breadcrumbs.edit'), CampaignEditPage, CATALOG),
  // The newsletter list: sync and bounces, admins (and superadmins).
  page(
    '/admin/mailing-list',
    tKey('staff:breadcrumbs.mailingList'),
    MailingListPage,
    staff(ADMIN_ONLY),
  ),
  // The superadmin area: webhooks and the e-mail sync; SUPERADMIN like their operations.
  page('/admin', tKey('admin:breadcrumbs.hub'), AdminHubPage, ADMIN_HUB),
  page('/admin/webhooks', tKey('admin:breadcrumbs.webhooks'), WebhooksPage, ADMIN_AREA),
  page('/admin/webhooks/:type', tKey('admin:breadcrumbs.webhook'), WebhookDetailPage, ADMIN_AREA),
  page('/admin/email-sync', tKey('admin:breadcrumbs.emailSync'), EmailSyncPage, ADMIN_AREA),
  page(
    '/admin/research-export',
    tKey('admin:breadcrumbs.researchExport'),
    ResearchExportPage,
    RESEARCH,
  ),
  // The legal pages: open to everyone, linked from every page's footer; filled
  // from the practice settings that a superadmin keeps on /admin/practice.
  page('/impressum', tKey('legal:breadcrumbs.imprint'), ImprintPage, LEGAL),
  page('/datenschutz', tKey('legal:breadcrumbs.privacy'), PrivacyPage, LEGAL),
  page(
    '/admin/practice',
    tKey('admin:breadcrumbs.practice'),
    PracticeSettingsPage,
    PRACTICE_SETTINGS,
  ),
];

/** The route patterns, for the data-driven menu. */
export const routePatterns = (): string[] => routes.map((r) => r.path);
