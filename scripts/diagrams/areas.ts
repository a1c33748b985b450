/** Where each flow belongs and what it is, in the words of the product, for the gallery. */
export const AREAS: ReadonlyArray<{ area: string; machines: Record<string, string> }> = [
  {
    area: 'Anmelden und Konto',
    machines: {
      session: 'Sitzung: angemeldet, abgemeldet, abgelaufen',
      authFlow: 'Anmelde-Widget: Anmelden, Registrieren, Profil',
      codeInput: 'Eingabe des Einmalcodes',
      confirm: 'Rückfrage vor einer Aktion im Widget',
      copy: 'Kopieren in die Zwischenablage',
      eventThrottle: 'Gebremste Widget-Ereignisse',
      emailSync: 'Abgleich der E-Mail-Adressen',
    },
  },
  {
    area: 'Klientinnen und Klienten',
    machines: {
      clientSignup: 'Registrierung mit Erstgespräch',
      appointmentSelection: 'Auswahl des eigenen Termins',
      clientAppointments: 'Meine Termine',
      cancelAppointment: 'Termin absagen',
      reschedule: 'Termin verschieben',
      preAppointment: 'Vor dem Termin: Hinweise und Beitreten',
      clientMeeting: 'Videotermin der Klientin',
      mailingList: 'Newsletter an- und abmelden',
    },
  },
  {
    area: 'Termine und Kalender',
    machines: {
      booking: 'Termin für eine Klientin buchen',
      slotPicker: 'Freie Zeiten wählen',
      calendar: 'Kalender des Teams',
      availabilityWeek: 'Verfügbarkeit einer Woche',
      appointmentDetail: 'Termin im Detail',
      calendarFeed: 'Kalender-Abo',
      coachMeeting: 'Videotermin des Coaches',
      coachMeetingStart: 'Videotermin starten',
      overview: 'Heute: Übersicht für das Team',
    },
  },
  {
    area: 'Dokumentation und Prüfung',
    machines: {
      documentEditor: 'Dokumentation schreiben, signieren, ergänzen',
      batchAction: 'Mehrere Einträge auf einmal bearbeiten',
    },
  },
  {
    area: 'Abrechnung',
    machines: {
      billingRules: 'Abrechnungsregeln',
      invoiceRun: 'Rechnungslauf',
      invoiceDetail: 'Rechnung im Detail',
      datevExport: 'DATEV-Export',
    },
  },
  {
    area: 'Verwaltung',
    machines: {
      list: 'Listen mit Filtern und Seiten',
      filterOptions: 'Auswahlwerte der Filter',
      recordDetail: 'Datensatz im Detail',
      recordForm: 'Datensatz bearbeiten',
      recordPicker: 'Datensatz auswählen',
      clientDetail: 'Klientenakte für das Team',
      confirmAction: 'Rückfrage vor einer Aktion',
      webhookList: 'Webhooks',
      webhookDetail: 'Webhook im Detail',
      researchExport: 'Forschungsexport',
      support: 'Supportanfrage',
    },
  },
];

export const OTHER_AREA = 'Weitere Abläufe';
