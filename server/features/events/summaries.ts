// Short German texts for the activity feed; unknown types fall back to the type itself.
const SUMMARIES: Record<string, string> = {
  'user.created': 'Benutzer:in angelegt',
  'user.updated': 'Benutzer:in geändert',
  'user.activated': 'Konto aktiviert',
  'coach.created': 'Coach angelegt',
  'coach.updated': 'Coach geändert',
  'coach.deactivated': 'Coach deaktiviert',
  'client.created': 'Klient:in angelegt',
  'client.updated': 'Klient:in geändert',
  'client.deleted': 'Klient:in gelöscht',
  'client.sessions_closed': 'Sitzungen abgeschlossen',
  'client.sessions_opened': 'Sitzungen wieder geöffnet',
  'appointment.created': 'Termin angelegt',
  'appointment.updated': 'Termin geändert',
  'appointment.cancelled': 'Termin abgesagt',
};

export const summaryOf = (type: string) => SUMMARIES[type] ?? type;
