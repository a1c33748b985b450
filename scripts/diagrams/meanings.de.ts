/**
 * What each state means to a person using the app, in German, for the gallery's product
 * owners (by state id, `machine.state.sub`). A machine's own `description` wins where it has
 * one. tests/unit/shell-diagrams.test.ts refuses meanings for states that no longer exist.
 */
export const MEANINGS: Record<string, string> = {
  'appointmentDetail.loading':
    'Der Termin mit seinen Nachrichten und Ereignissen wird geladen; die Seite zeigt einen Ladehinweis (nach einer Änderung bleiben die bisherigen Angaben sichtbar).',
  'appointmentDetail.failed':
    'Der Termin konnte nicht geladen werden; die Seite zeigt eine Fehlermeldung und, wo sinnvoll, „Erneut versuchen“.',
  'appointmentDetail.ready':
    'Der Termin wird mit Nachrichten und Ereignissen angezeigt; die Knöpfe richten sich danach, ob er bevorsteht, läuft, vorbei oder abgesagt ist.',
  'appointmentDetail.ready.offers':
    'Die App prüft anhand der Terminzeiten, welche Aktionen für diesen Termin angeboten werden.',
  'appointmentDetail.ready.offers.checking':
    'Die App ordnet den Termin gerade zeitlich ein, um die passenden Knöpfe zu zeigen.',
  'appointmentDetail.ready.offers.upcoming':
    'Der Termin steht bevor; er kann abgesagt und die Einladungen können erneut verschickt werden.',
  'appointmentDetail.ready.offers.underway':
    'Der Termin läuft gerade; er kann noch abgesagt, die Einladungen erneut verschickt oder ein Nichterscheinen vermerkt werden.',
  'appointmentDetail.ready.offers.ended':
    'Der Termin ist vorbei; nur das Nichterscheinen kann noch vermerkt oder zurückgenommen werden.',
  'appointmentDetail.ready.offers.cancelled':
    'Der Termin ist abgesagt; es werden keine Aktionen mehr angeboten.',
  'appointmentDetail.ready.action':
    'Die Aktionsknöpfe des Termins: bereit, mit einer Rückfrage offen oder mit einer laufenden Aktion beschäftigt.',
  'appointmentDetail.ready.action.checking':
    'Die App prüft, ob die Seite direkt mit der Absage-Rückfrage geöffnet werden soll (Absage-Link).',
  'appointmentDetail.ready.action.idle':
    'Die Aktionsknöpfe sind bereit; die Mitarbeiterin kann absagen, Nichterscheinen vermerken oder Einladungen erneut senden.',
  'appointmentDetail.ready.action.confirmingCancel':
    'Die App fragt nach, ob der Termin wirklich abgesagt werden soll; bestätigen oder abbrechen.',
  'appointmentDetail.ready.action.cancelling':
    'Die Absage wird gesendet; die Knöpfe zeigen, dass die App beschäftigt ist.',
  'appointmentDetail.ready.action.settingNoShow':
    'Das Nichterscheinen wird gespeichert bzw. zurückgenommen; die App ist kurz beschäftigt.',
  'appointmentDetail.ready.action.resending':
    'Die Einladungen werden erneut verschickt; die App ist kurz beschäftigt.',
  'appointmentSelection.picking':
    'Der Klient wählt aus den freien Terminen einen aus und bucht ihn.',
  'appointmentSelection.booked':
    'Der Termin ist gebucht; die Seite bestätigt ihn und bietet den Kalendereintrag zum Herunterladen an.',
  'appointmentSelection.alreadyBooked':
    'Der Klient hat schon einen Termin; die Seite sagt das, statt einen weiteren buchen zu lassen.',
  'appointmentSelection.notClient':
    'Die angemeldete Person ist kein Klient; die Seite erklärt, dass hier nicht gebucht werden kann.',
  'batchAction.selecting':
    'Die Mitarbeiterin wählt Einträge auf der Seite (oder alle, die der Filter trifft) und dann eine Aktion für alle.',
  'batchAction.loadingMatching':
    'Alle Einträge, die der Filter trifft, werden geholt, um sie auszuwählen; ein Ladehinweis ist sichtbar.',
  'batchAction.matchingFailed':
    'Die passenden Einträge konnten nicht geholt werden; eine Fehlermeldung bietet „Erneut versuchen“ oder „Zurück“.',
  'batchAction.confirming':
    'Ein Dialog nennt die Anzahl (und ggf. Summe) der gewählten Einträge und fragt, ob die Aktion ausgeführt werden soll.',
  'batchAction.submitting':
    'Die Sammelaktion wird an den Server geschickt; der Dialog zeigt, dass die App beschäftigt ist.',
  'batchAction.done':
    'Die Sammelaktion ist erledigt; der Dialog zeigt das Ergebnis, danach geht es mit der Liste weiter.',
  'batchAction.conflict':
    'Der Server hat einzelne Einträge abgelehnt; der Dialog nennt sie und bietet an, sie abzuwählen und den Rest auszuführen.',
  'batchAction.failed':
    'Die Sammelaktion ist fehlgeschlagen (z. B. keine Verbindung); „Erneut versuchen“ führt sie sicher nicht doppelt aus.',
  'billingRules.list': 'Die geordnete Liste der Abrechnungsregeln mit Verschieben und Löschen.',
  'billingRules.list.loading':
    'Die Abrechnungsregeln werden geladen; die Liste zeigt einen Ladehinweis.',
  'billingRules.list.loadFailed':
    'Die Abrechnungsregeln konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'billingRules.list.ready':
    'Die Regeln werden angezeigt; der Admin kann sie verschieben oder eine löschen.',
  'billingRules.list.saving': 'Die neue Reihenfolge ist schon sichtbar und wird gespeichert.',
  'billingRules.list.reloading':
    'Jemand anderes hat die Regeln inzwischen geändert; die aktuelle Liste wird neu geladen.',
  'billingRules.list.asking': 'Die App fragt nach, ob die Regel wirklich gelöscht werden soll.',
  'billingRules.list.deleting':
    'Die Regel wird gelöscht; die Rückfrage zeigt, dass die App beschäftigt ist.',
  'billingRules.list.deleteFailed':
    'Das Löschen ist fehlgeschlagen; die Rückfrage zeigt den Fehler und bietet „Erneut versuchen“ oder „Abbrechen“.',
  'billingRules.preview': 'Die Vorschau, welche Regel einen bestimmten Termin abrechnen würde.',
  'billingRules.preview.idle': 'Noch keine Vorschau; der Admin kann einen Termin angeben.',
  'billingRules.preview.previewing': 'Die Vorschau für den gewählten Termin wird berechnet.',
  'billingRules.preview.shown':
    'Die Vorschau zeigt, welche Regel greift und woran die Regeln davor gescheitert sind.',
  'billingRules.preview.failed':
    'Die Vorschau ist nicht möglich (ungültige Termin-Nummer oder Fehler); eine Meldung sagt warum.',
  'billingRules.pick': 'Die Auswahl eines Termins für die Vorschau über einen Klienten.',
  'billingRules.pick.none': 'Kein Klient gewählt; es werden keine Termine zur Auswahl gezeigt.',
  'billingRules.pick.loading': 'Die Termine des gewählten Klienten werden geladen.',
  'billingRules.pick.ready':
    'Die Termine des Klienten werden zur Auswahl für die Vorschau angezeigt.',
  'billingRules.pick.failed':
    'Die Termine des Klienten konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'booking.starting':
    'Die Terminbuchung beginnt; die App entscheidet, ob erst ein Coach gewählt werden muss.',
  'booking.loadingCoaches': 'Die Liste der Coaches wird geladen; ein Ladehinweis ist sichtbar.',
  'booking.coachesFailed':
    'Die Coaches konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'booking.noCoach': 'Es gibt keinen Coach, für den gebucht werden kann; die Seite erklärt das.',
  'booking.choosingClient': 'Die Mitarbeiterin sucht den Klienten, für den sie einen Termin bucht.',
  'booking.choosingClient.idle':
    'Das Suchfeld wartet auf eine Eingabe (mindestens ein paar Zeichen).',
  'booking.choosingClient.debouncing':
    'Die Mitarbeiterin tippt noch; die Suche startet, sobald sie kurz innehält.',
  'booking.choosingClient.searching':
    'Passende Klienten werden gesucht; ein Ladehinweis ist sichtbar.',
  'booking.choosingClient.results':
    'Die gefundenen Klienten werden angezeigt; einer kann ausgewählt werden.',
  'booking.choosingClient.searchFailed':
    'Die Suche ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“.',
  'booking.choosingSlot':
    'Der Klient ist gewählt; nun werden Coach, Terminart, Dauer und ein freier Termin gewählt.',
  'booking.booked':
    'Der Termin ist gebucht; die Seite bestätigt das und bietet an, einen weiteren zu buchen.',
  'calendar.starting':
    'Der Kalender öffnet sich; die App entscheidet, ob erst die Coaches geladen werden.',
  'calendar.loadingCoaches':
    'Die Coaches zur Auswahl werden geladen; der Kalender zeigt einen Ladehinweis.',
  'calendar.loading':
    'Die Termine des gewählten Zeitraums werden geladen; der Kalender zeigt einen Ladehinweis.',
  'calendar.failed':
    'Die Termine konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“, blättern geht weiterhin.',
  'calendar.ready':
    'Der Kalender zeigt die Termine des Zeitraums; man kann blättern, den Coach wechseln oder einen Termin öffnen.',
  'calendar.ready.idle': 'Der Kalender ist bereit; kein Termin ist geöffnet.',
  'calendar.ready.detail':
    'Ein Termin ist in der Detailansicht geöffnet; sie kann wieder geschlossen werden.',
  'calendar.ready.detail.loadingDetail': 'Die Details des angeklickten Termins werden geladen.',
  'calendar.ready.detail.detailFailed':
    'Die Termindetails konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'calendar.ready.detail.showing':
    'Die Termindetails werden angezeigt; ein absagbarer Termin kann abgesagt werden.',
  'calendar.ready.detail.confirmingCancel':
    'Die App fragt nach, ob der Termin wirklich abgesagt werden soll.',
  'calendar.ready.detail.cancelling': 'Die Absage wird gesendet; danach lädt der Kalender neu.',
  'calendarConnections.loading': 'Die verbundenen Kalender des Coachs werden geladen.',
  'calendarConnections.failed':
    'Die verbundenen Kalender konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'calendarConnections.ready':
    'Jede Verbindung zeigt ihren Stand und ihre Kalender; ein weiterer Kalender kann verbunden werden.',
  'calendarConnections.ready.work':
    'Was der Coach gerade tut: verbinden, Kalender wählen, abgleichen oder trennen.',
  'calendarConnections.ready.work.idle':
    'Der Coach sieht die Verbindungen und kann wählen, abgleichen, trennen oder das Formular ausfüllen.',
  'calendarConnections.ready.work.connecting':
    'Der Server meldet sich beim Kalenderserver an und sucht die Kalender; lehnt er ab, steht der Grund am Feld.',
  'calendarConnections.ready.work.saving':
    'Die Wahl (blockierende Kalender, Termin-Kalender, ganztägige Termine) wird gespeichert.',
  'calendarConnections.ready.work.syncing': '„Jetzt abgleichen“ wird beim Server angestoßen.',
  'calendarConnections.ready.work.confirmingDisconnect':
    'Die App fragt, ob getrennt werden soll: App-Passwort und gespeicherte belegte Zeiten werden gelöscht.',
  'calendarConnections.ready.work.disconnecting':
    'Die Verbindung wird getrennt; danach verschwindet sie aus der Liste.',
  'calendarConnections.ready.watch':
    'Ob die App auf den Abgleich im Hintergrund wartet, um den neuen Stand zu zeigen.',
  'calendarConnections.ready.watch.resting': 'Kein Abgleich steht aus; der Stand ist aktuell.',
  'calendarConnections.ready.watch.waiting':
    'Ein Abgleich wurde angestoßen; die App fragt in Kürze nach dem neuen Stand.',
  'calendarConnections.ready.watch.refreshing':
    'Die App lädt den Stand der Verbindungen neu (letzter Abgleich, Fehler).',
  'calendarFeed.loading': 'Die App prüft, ob der Coach schon eine Kalender-Abo-Adresse hat.',
  'calendarFeed.failed':
    'Der Stand des Kalender-Abos konnte nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'calendarFeed.ready':
    'Der Stand des Kalender-Abos wird angezeigt; eine Adresse kann erstellt oder erneuert werden.',
  'calendarFeed.ready.idle':
    'Der Coach sieht, ob ein Abo besteht, und kann eines anlegen oder die Adresse erneuern.',
  'calendarFeed.ready.confirmingRenew':
    'Die App warnt, dass die alte Abo-Adresse sofort ungültig wird, und fragt nach.',
  'calendarFeed.ready.creating':
    'Die neue Abo-Adresse wird erstellt; danach wird sie zum Kopieren angezeigt.',
  'cancelAppointment.loading': 'Der abzusagende Termin wird geladen; ein Ladehinweis ist sichtbar.',
  'cancelAppointment.loadFailed':
    'Der Termin konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'cancelAppointment.notFound': 'Den Termin gibt es nicht (mehr); die Seite sagt das.',
  'cancelAppointment.alreadyCancelled': 'Der Termin ist bereits abgesagt; die Seite sagt das.',
  'cancelAppointment.tooLate':
    'Der Termin hat schon begonnen und kann nicht mehr abgesagt werden; die Seite sagt das.',
  'cancelAppointment.confirming':
    'Der Klient sieht den Termin und bestätigt, dass er ihn absagen möchte.',
  'cancelAppointment.cancelling':
    'Die Absage wird gesendet; der Knopf zeigt, dass die App beschäftigt ist.',
  'cancelAppointment.cancelled': 'Der Termin ist abgesagt; die Seite bestätigt das.',
  'clientAppointments.loading':
    'Die Termine des Klienten werden geladen; ein Ladehinweis ist sichtbar.',
  'clientAppointments.loadFailed':
    'Die Termine konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'clientAppointments.upcoming':
    'Der nächste Termin wird angezeigt (zur rechten Zeit mit dem Zugang zum Besprechungsraum).',
  'clientAppointments.none': 'Der Klient hat keinen anstehenden Termin; die Seite sagt das.',
  'clientDetail.loading': 'Die Angaben zum Klienten werden geladen; ein Ladehinweis ist sichtbar.',
  'clientDetail.failed':
    'Der Klient konnte nicht geladen werden; eine Fehlermeldung bietet, wo sinnvoll, „Erneut versuchen“.',
  'clientDetail.ready': 'Die Angaben zum Klienten werden angezeigt mit den möglichen Aktionen.',
  'clientDetail.ready.idle':
    'Die Mitarbeiterin kann Sitzungen schließen oder öffnen, an den Vertrag erinnern oder einen Anmeldelink schicken.',
  'clientDetail.ready.confirmingClose':
    'Die App fragt nach, ob die Sitzungen des Klienten wirklich geschlossen werden sollen.',
  'clientDetail.ready.closing':
    'Die Sitzungen werden geschlossen; die Rückfrage zeigt, dass die App beschäftigt ist.',
  'clientDetail.ready.opening':
    'Die Sitzungen werden wieder geöffnet; die App ist kurz beschäftigt.',
  'clientDetail.ready.sendingSignInLink':
    'Ein Anmeldelink wird an die E-Mail-Adresse des Klienten geschickt.',
  'clientDetail.ready.reminding':
    'Eine Erinnerung an den noch nicht unterschriebenen Vertrag wird an den Klienten geschickt.',
  'clientMeeting.start':
    'Die Besprechungsseite öffnet sich; die App prüft, ob ein Besprechungscode mitgegeben wurde.',
  'clientMeeting.enteringCode':
    'Der Klient sieht ein Feld für den Besprechungscode und gibt ihn ein.',
  'clientMeeting.lookingUp': 'Die Besprechung zum Code wird gesucht; ein Ladehinweis ist sichtbar.',
  'clientMeeting.scheduled':
    'Die Besprechung ist gefunden; die App prüft, ob sie schon betreten werden kann.',
  'clientMeeting.waiting':
    'Es ist noch zu früh; der Klient sieht einen Countdown bis zum Beginn und wird dann automatisch verbunden.',
  'clientMeeting.joining': 'Der Zugang zum Videoraum wird geholt; der Klient sieht „Verbinde …“.',
  'clientMeeting.room': 'Der Klient ist im Videoraum der Besprechung.',
  'clientMeeting.room.connecting':
    'Der Videoraum wird aufgebaut; der Klient sieht noch „Verbinde …“.',
  'clientMeeting.room.inMeeting': 'Der Klient ist in der Videobesprechung mit dem Coach.',
  'clientMeeting.finished':
    'Der Klient hat den Videoraum verlassen; die Besprechung ist für ihn beendet.',
  'clientMeeting.invalidCode':
    'Der Code ist ungültig; die Seite sagt das und der Klient kann einen anderen Code eingeben.',
  'clientMeeting.failed':
    'Etwas ist schiefgegangen (Suche oder Verbindung); eine Fehlermeldung bietet „Erneut versuchen“.',
  'clientMeeting.cancelled':
    'Der Termin wurde abgesagt; die Seite sagt, dass die Besprechung nicht stattfindet.',
  'clientMeeting.over':
    'Die Besprechungszeit ist vorbei; die Seite sagt, dass man nicht mehr beitreten kann.',
  'clientMeeting.external':
    'Die Besprechung findet mit einem anderen Werkzeug statt; die Seite zeigt den Link dorthin.',
  'clientSignup.editing': 'Der neue Klient füllt das Anmeldeformular aus.',
  'clientSignup.editing.clean': 'Das Formular wird ausgefüllt; es werden keine Fehler angezeigt.',
  'clientSignup.editing.invalid':
    'Einige Angaben sind ungültig; die Felder zeigen, was zu korrigieren ist.',
  'clientSignup.editing.failed':
    'Das Absenden ist fehlgeschlagen; über dem Formular steht eine Fehlermeldung, es kann erneut gesendet werden.',
  'clientSignup.validating':
    'Die Angaben werden nach dem Absenden auf Vollständigkeit und Form geprüft.',
  'clientSignup.checking':
    'Der Server prüft die Angaben, bevor ein Konto angelegt wird; der Knopf zeigt, dass die App beschäftigt ist.',
  'clientSignup.registering':
    'Der Klient legt sein Konto an und bestätigt es mit dem Code aus der E-Mail; das Formular kann noch bearbeitet werden.',
  'clientSignup.registering.starting': 'Die Kontoanlage wird vorbereitet.',
  'clientSignup.registering.running':
    'Der Klient gibt den per E-Mail erhaltenen Code ein, um sein Konto anzulegen.',
  'clientSignup.linking':
    'Das neue Konto wird mit den Klientendaten verknüpft; ein Ladehinweis ist sichtbar.',
  'clientSignup.linkFailed':
    'Die Verknüpfung ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“.',
  'clientSignup.activating': 'Die Anmeldung wird als Klient aktualisiert; gleich ist alles fertig.',
  'clientSignup.done':
    'Die Anmeldung ist abgeschlossen; der Klient ist angemeldet und kann die App nutzen.',
  'coachMeeting.lookingUp':
    'Die Besprechung zum Coach-Code wird gesucht; ein Ladehinweis ist sichtbar.',
  'coachMeeting.found':
    'Die Besprechung ist gefunden; die App entscheidet, was der Coach als Nächstes sieht.',
  'coachMeeting.overview':
    'Der Coach sieht die Übersicht der Besprechung; sobald sie beginnt, kann er beitreten.',
  'coachMeeting.waiting':
    'Es ist noch zu früh; der Coach sieht einen Countdown und wird dann automatisch verbunden.',
  'coachMeeting.joining': 'Der Zugang zum Videoraum wird geholt; der Coach sieht „Verbinde …“.',
  'coachMeeting.room': 'Der Coach ist im Videoraum der Besprechung.',
  'coachMeeting.room.connecting':
    'Der Videoraum wird aufgebaut; der Coach sieht noch „Verbinde …“.',
  'coachMeeting.room.inMeeting': 'Der Coach ist in der Videobesprechung mit dem Klienten.',
  'coachMeeting.left': 'Der Coach hat den Videoraum verlassen; es geht zur Abschlussseite.',
  'coachMeeting.recording':
    'Auf der Abschlussseite wird festgehalten, dass die Besprechung beendet ist.',
  'coachMeeting.finished':
    'Die Besprechung ist als beendet festgehalten; die Abschlussseite bestätigt das.',
  'coachMeeting.invalidCode': 'Der Coach-Code ist ungültig; die Seite sagt das.',
  'coachMeeting.cancelled':
    'Der Termin wurde abgesagt; die Seite sagt, dass die Besprechung nicht stattfindet.',
  'coachMeeting.over':
    'Die Besprechungszeit ist vorbei; die Seite sagt, dass man nicht mehr beitreten kann.',
  'coachMeeting.external':
    'Die Besprechung findet mit einem anderen Werkzeug statt; die Seite zeigt den Link dorthin.',
  'coachMeeting.failed':
    'Etwas ist schiefgegangen (Suche, Verbindung oder Abschluss); eine Fehlermeldung bietet „Erneut versuchen“.',
  'coachMeetingStart.upcoming':
    'Die nächsten Termine des Coaches (jede Minute aktualisiert, damit Beitritts-Knöpfe pünktlich erscheinen).',
  'coachMeetingStart.upcoming.loading': 'Die nächsten Termine des Coaches werden geladen.',
  'coachMeetingStart.upcoming.loaded':
    'Die nächsten zwei Termine werden angezeigt, bei Bedarf mit Beitritts-Knopf.',
  'coachMeetingStart.upcoming.failed':
    'Die nächsten Termine konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'coachMeetingStart.codeForm': 'Das Formular, um eine Besprechung per Code zu öffnen.',
  'coachMeetingStart.codeForm.editing':
    'Der Coach gibt einen Besprechungscode ein (ein falscher Code wird gemeldet).',
  'coachMeetingStart.codeForm.checking':
    'Der eingegebene Code wird geprüft; der Knopf zeigt, dass die App beschäftigt ist.',
  'coachMeetingStart.codeForm.opened': 'Der Code ist gültig; die Besprechung wird geöffnet.',
  'codeInput.editing':
    'Die Person tippt oder fügt den sechsstelligen Code ein; noch fehlen Ziffern.',
  'codeInput.complete':
    'Alle sechs Ziffern sind eingegeben; der Code wird automatisch abgeschickt.',
  'confirm.closed': 'Keine Rückfrage offen; der Link kann angeklickt werden.',
  'confirm.open': 'Eine kleine Rückfrage „Wirklich?“ ist offen; Ja oder Nein.',
  'confirm.closing':
    'Der Mauszeiger hat die Rückfrage verlassen; sie schließt sich gleich, wenn er nicht zurückkommt.',
  'confirmAction.idle': 'Die Aktion ist bereit; noch keine Rückfrage offen.',
  'confirmAction.confirming':
    'Eine Rückfrage ist offen, ob die Aktion wirklich ausgeführt werden soll.',
  'confirmAction.running':
    'Die bestätigte Aktion läuft; die Rückfrage zeigt, dass die App beschäftigt ist.',
  'confirmAction.failed':
    'Die Aktion ist fehlgeschlagen; die Rückfrage zeigt den Fehler und bietet „Erneut versuchen“ oder „Abbrechen“.',
  'consent.starting':
    'Eine Anmeldeseite öffnet sich; die App prüft, ob es hier einen Tag-Manager gibt und ob der Besucher auf diesem Gerät schon zugestimmt oder abgelehnt hat.',
  'consent.unavailable':
    'Auf dieser Seite gibt es keinen Tag-Manager; es erscheint kein Hinweis und kein Link „Cookie-Einstellungen“.',
  'consent.undecided':
    'Der Hinweis zur Reichweitenmessung ist offen; nichts wird geladen, bis der Besucher „Akzeptieren“ oder „Ablehnen“ wählt.',
  'consent.accepted':
    'Der Besucher hat zugestimmt; der Tag-Manager wird geladen, die Wahl bleibt auf diesem Gerät gespeichert.',
  'consent.accepted.closed':
    'Der Hinweis ist zu; über „Cookie-Einstellungen“ unten auf der Seite lässt er sich wieder öffnen.',
  'consent.accepted.reviewing':
    'Der Hinweis ist wieder offen und sagt „Zurzeit: zugestimmt.“; „Ablehnen“ lädt die Seite ohne Tag-Manager neu, „Akzeptieren“ oder die Escape-Taste lassen alles, wie es ist.',
  'consent.declined':
    'Der Besucher hat abgelehnt; der Tag-Manager wird nicht geladen, die Wahl bleibt auf diesem Gerät gespeichert.',
  'consent.declined.closed':
    'Der Hinweis ist zu; über „Cookie-Einstellungen“ unten auf der Seite lässt er sich wieder öffnen.',
  'consent.declined.reviewing':
    'Der Hinweis ist wieder offen und sagt „Zurzeit: abgelehnt.“; „Akzeptieren“ lädt den Tag-Manager, „Ablehnen“ oder die Escape-Taste lassen alles, wie es ist.',
  'consent.reloading':
    'Der Besucher hat seine Zustimmung zurückgenommen; die Seite lädt neu, denn ein schon geladener Tag-Manager lässt sich nur so wieder loswerden.',
  'copy.idle': 'Der Kopieren-Knopf ist bereit.',
  'copy.copying': 'Der Text wird in die Zwischenablage kopiert.',
  'copy.copied': 'Kurz erscheint „Kopiert“ als Bestätigung.',
  'copy.failed': 'Kopieren hat nicht geklappt; kurz erscheint ein Hinweis.',
  'datevExport.editing':
    'Der Zeitraum für den DATEV-Export wird gewählt; er ist gültig und kann exportiert werden.',
  'datevExport.invalid':
    'Der gewählte Zeitraum ist ungültig; ein Hinweis erscheint und der Export ist gesperrt.',
  'datevExport.exporting':
    'Der DATEV-Export wird erstellt; der Knopf zeigt, dass die App beschäftigt ist.',
  'datevExport.done':
    'Der Export ist fertig und steht zum Herunterladen bereit; er kann erneut ausgeführt werden.',
  'datevExport.failed':
    'Der Export ist fehlgeschlagen; eine Fehlermeldung erscheint und er kann erneut versucht werden.',
  'emailSync.idle': 'Der Superadmin kann den Abgleich der E-Mail-Adressen starten.',
  'emailSync.syncing':
    'Die E-Mail-Adressen werden abgeglichen; der Knopf ist gesperrt und ein Fortschritt ist sichtbar.',
  'emailSync.done':
    'Der Abgleich ist fertig; die Seite zeigt, wie viele Adressen geprüft und korrigiert wurden.',
  'emailSync.failed':
    'Der Abgleich ist fehlgeschlagen; eine Fehlermeldung erscheint und er kann erneut gestartet werden.',
  'eventThrottle.open': 'Im Hintergrund: das nächste Ereignis wird sofort weitergegeben.',
  'eventThrottle.throttling':
    'Im Hintergrund: Ereignisse werden kurz gebremst, damit nicht zu viele auf einmal weitergehen.',
  'filterOptions.loading':
    'Die Auswahlen für die Listenfilter (Coaches, Krankenkassen, Kampagnen) werden geladen.',
  'filterOptions.ready':
    'Die Filter bieten alle Coaches, Krankenkassen und Kampagnen zur Auswahl an.',
  'filterOptions.unavailable':
    'Die Filterauswahlen konnten nicht geladen werden; die Listen funktionieren, die Filter bieten aber nur „Alle“.',
  'initialCalendar.loading':
    'Die freien und gebuchten Erstgespräche der Woche werden für alle Coaches geladen; der Kalender zeigt einen Ladehinweis.',
  'initialCalendar.failed':
    'Die Erstgespräche konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“, blättern geht weiterhin.',
  'initialCalendar.ready':
    'Der Kalender zeigt die freien und gebuchten Erstgespräche einer Woche oder eines Tages; man kann blättern, nach Coach filtern und zwischen Tag und Woche wechseln (auf schmalen Bildschirmen immer ein Tag).',
  'initialCalendar.ready.idle':
    'Der Kalender ist bereit; kein gebuchtes Erstgespräch ist geöffnet.',
  'initialCalendar.ready.detail':
    'Ein gebuchtes Erstgespräch ist in der Detailansicht geöffnet; sie kann wieder geschlossen werden.',
  'initialCalendar.ready.detail.loadingDetail':
    'Die Details des angeklickten Erstgesprächs werden geladen.',
  'initialCalendar.ready.detail.detailFailed':
    'Die Details konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'initialCalendar.ready.detail.showing':
    'Klient, Coach, Zeit und Status des Erstgesprächs werden angezeigt; „Termin öffnen“ führt zur Terminseite.',
  'invoiceDetail.loading': 'Die Rechnung wird geladen; die Seite zeigt einen Ladehinweis.',
  'invoiceDetail.failed':
    'Die Rechnung konnte nicht geladen werden; eine Fehlermeldung bietet, wo sinnvoll, „Erneut versuchen“.',
  'invoiceDetail.shown': 'Die Rechnung wird angezeigt mit Herunterladen, Versenden und Stornieren.',
  'invoiceDetail.shown.idle':
    'Die Rechnung ist zu sehen; sie kann heruntergeladen, per E-Mail versendet oder storniert werden.',
  'invoiceDetail.shown.downloading':
    'Das Rechnungsdokument wird heruntergeladen; der Knopf zeigt, dass die App beschäftigt ist.',
  'invoiceDetail.shown.downloadFailed':
    'Das Herunterladen ist fehlgeschlagen; eine Meldung bietet „Erneut versuchen“ oder „Schließen“.',
  'invoiceDetail.shown.askingSend':
    'Ein Dialog fragt nach der E-Mail-Adresse und ob die Rechnung versendet werden soll.',
  'invoiceDetail.shown.sending':
    'Die Rechnung wird per E-Mail versendet; der Dialog zeigt, dass die App beschäftigt ist.',
  'invoiceDetail.shown.sendFailed':
    'Das Versenden ist fehlgeschlagen; der Dialog zeigt den Fehler, die Adresse kann geändert und erneut gesendet werden.',
  'invoiceDetail.shown.askingCancel':
    'Ein Dialog fragt nach einem Grund und ob die Rechnung wirklich storniert werden soll.',
  'invoiceDetail.shown.cancelling': 'Die Rechnung wird storniert; danach wird sie neu geladen.',
  'invoiceDetail.shown.cancelFailed':
    'Das Stornieren ist fehlgeschlagen; der Dialog zeigt den Fehler und bietet „Erneut versuchen“ oder „Abbrechen“.',
  'invoiceRun.idle': 'Kein Rechnungslauf offen; der Admin kann „Rechnungslauf starten“ wählen.',
  'invoiceRun.previewing':
    'Die App ermittelt, was ein Rechnungslauf jetzt abrechnen würde; der Dialog zeigt einen Ladehinweis.',
  'invoiceRun.previewFailed':
    'Die Vorschau des Rechnungslaufs ist fehlgeschlagen; der Dialog bietet „Erneut versuchen“ oder „Abbrechen“.',
  'invoiceRun.nothingDue':
    'Es ist nichts abzurechnen; der Dialog sagt das und bietet keinen Lauf an.',
  'invoiceRun.confirming':
    'Der Dialog zeigt Anzahl, Zahler und Summe (und fehlende Rechnungsadressen) und fragt, ob der Lauf starten soll.',
  'invoiceRun.running':
    'Der Rechnungslauf läuft; der Dialog zeigt, dass die Rechnungen erstellt werden.',
  'invoiceRun.queued':
    'Ein großer Lauf wird im Hintergrund abgearbeitet; der Dialog zeigt den Fortschritt („12 von 200 Rechnungen erstellt“).',
  'invoiceRun.queued.waiting':
    'Der Dialog zeigt den letzten Fortschritt und wartet kurz bis zur nächsten Abfrage.',
  'invoiceRun.queued.polling': 'Die App fragt den aktuellen Fortschritt des Laufs ab.',
  'invoiceRun.jobFailed':
    'Der Rechnungslauf ist im Hintergrund gescheitert; der Dialog sagt das und kann geschlossen werden.',
  'invoiceRun.failed':
    'Der Start des Rechnungslaufs ist fehlgeschlagen; „Erneut versuchen“ erstellt die Rechnungen sicher nicht doppelt.',
  'invoiceRun.done':
    'Der Rechnungslauf ist fertig; die erstellten Rechnungen werden mit Links angezeigt.',
  'list.loading':
    'Die Einträge der Liste (Seite, Filter, Sortierung) werden geladen; ein Ladehinweis ist sichtbar.',
  'list.loaded': 'Die Liste zeigt ihre Einträge; man kann blättern, filtern und sortieren.',
  'list.empty': 'Die Liste hat für diese Filter keine Einträge; sie sagt das.',
  'list.failed':
    'Die Liste konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“ (bei kurzen Störungen lädt sie selbst neu).',
  'mailingList.loading':
    'Der Stand der Newsletter-Liste wird geladen; ein Ladehinweis ist sichtbar.',
  'mailingList.failed':
    'Der Stand der Newsletter-Liste konnte nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'mailingList.ready':
    'Der letzte Abgleich mit seinem Ergebnis und die Rückläufer werden angezeigt; „Jetzt abgleichen“ ist möglich.',
  'mailingList.starting':
    'Der Abgleich der Newsletter-Liste wird gestartet; der Knopf zeigt, dass die App beschäftigt ist.',
  'mailingList.startFailed':
    'Der Abgleich konnte nicht gestartet werden (läuft schon oder nicht eingerichtet); eine Meldung sagt das.',
  'mailingList.watching':
    'Ein Abgleich läuft; die Seite zeigt das und schaut regelmäßig nach dem Stand.',
  'mailingList.polling': 'Ein Abgleich läuft; die App fragt gerade den aktuellen Stand ab.',
  'overview.loading':
    'Die Startseite „Heute“ bzw. das Dashboard lädt ihre Karten mit den Zahlen (und für „Heute“ die Termine des Tages); ein Ladehinweis ist sichtbar.',
  'overview.loaded':
    'Die Karten und, bei „Heute“, die Termine des Tages werden angezeigt; „Videotermin beitreten“ erscheint und verschwindet pünktlich (die Uhr wird jede Minute gelesen).',
  'overview.failed':
    'Die Übersicht konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'preAppointment.enteringClient':
    'Die Mitarbeiterin erfasst die Daten eines neuen Klienten für das Erstgespräch.',
  'preAppointment.choosingSlot':
    'Der Klient ist angelegt; nun wird ein freier Termin für das Erstgespräch gewählt und gebucht.',
  'preAppointment.booked': 'Das Erstgespräch ist gebucht; die Seite bestätigt das.',
  'recordDetail.loading': 'Der Eintrag wird geladen; die Seite zeigt einen Ladehinweis.',
  'recordDetail.failed':
    'Der Eintrag konnte nicht geladen werden; eine Fehlermeldung bietet, wo sinnvoll, „Erneut versuchen“.',
  'recordDetail.shown': 'Der Eintrag wird angezeigt.',
  'recordForm.starting':
    'Das Formular öffnet sich; die App entscheidet, ob ein neuer Eintrag angelegt oder ein bestehender geladen wird.',
  'recordForm.loading':
    'Der zu bearbeitende Eintrag wird geladen; das Formular zeigt einen Ladehinweis.',
  'recordForm.loadFailed':
    'Der Eintrag konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'recordForm.editing': 'Die Person füllt das Formular aus; Fehler stehen an den Feldern.',
  'recordForm.saving':
    'Der Eintrag wird gespeichert; der Speichern-Knopf zeigt, dass die App beschäftigt ist.',
  'recordForm.conflict':
    'Jemand anderes hat den Eintrag inzwischen geändert; die Seite bietet an, weiter zu bearbeiten oder neu zu laden.',
  'recordForm.failed':
    'Das Speichern ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“ oder weiter bearbeiten.',
  'recordForm.done': 'Der Eintrag ist gespeichert (oder war unverändert); das Formular ist fertig.',
  'recordPicker.starting':
    'Das Auswahlfeld öffnet sich; die App prüft, ob schon ein Eintrag gewählt ist.',
  'recordPicker.resolving':
    'Der Name des schon gewählten Eintrags wird nachgeschlagen, um ihn anzuzeigen.',
  'recordPicker.idle':
    'Das Suchfeld wartet auf Eingabe (mindestens zwei Buchstaben) oder zeigt den gewählten Eintrag.',
  'recordPicker.debouncing': 'Die Person tippt noch; die Suche startet, sobald sie kurz innehält.',
  'recordPicker.searching': 'Passende Einträge werden gesucht; ein Ladehinweis ist sichtbar.',
  'recordPicker.results': 'Die Treffer werden angezeigt; einer kann ausgewählt werden.',
  'recordPicker.failed':
    'Die Suche ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“.',
  'reschedule.loading': 'Der zu verschiebende Termin wird geladen; ein Ladehinweis ist sichtbar.',
  'reschedule.loadFailed':
    'Der Termin konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'reschedule.notFound': 'Den Termin gibt es nicht (mehr); die Seite sagt das.',
  'reschedule.cancelled':
    'Der Termin ist abgesagt und kann nicht verschoben werden; die Seite sagt das.',
  'reschedule.tooLate':
    'Der Termin hat schon begonnen und kann nicht mehr verschoben werden; die Seite sagt das.',
  'reschedule.choosing':
    'Der Klient wählt aus den freien Terminen einen neuen Zeitpunkt und bestätigt ihn.',
  'reschedule.moved': 'Der Termin ist verschoben; die Seite bestätigt den neuen Zeitpunkt.',
  'researchExport.loading':
    'Die Zahlen zur Forschungsfreigabe (Klienten mit Einwilligung, ihre Termine) werden geladen.',
  'researchExport.loadFailed':
    'Die Zahlen konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'researchExport.ready':
    'Die Seite zeigt, wie viele Klienten eingewilligt haben; „ZIP herunterladen“ ist möglich, sofern eingerichtet.',
  'researchExport.downloading':
    'Der Forschungsexport wird als ZIP erstellt und heruntergeladen; der Knopf zeigt, dass die App beschäftigt ist.',
  'researchExport.done': 'Der Forschungsexport ist heruntergeladen; er kann erneut geladen werden.',
  'researchExport.failed':
    'Der Download ist fehlgeschlagen; die Zahlen bleiben sichtbar und er kann erneut versucht werden.',
  'session.restoring':
    'Die App startet und schaut nach, ob im Browser noch eine Anmeldung gespeichert ist.',
  'session.loggingIn':
    'Die Anmeldung wird beim Server bestätigt (Rolle, Coach, aktiv); ein Ladehinweis ist sichtbar.',
  'session.partiallyLoggedIn':
    'Die Anmeldung ist nur halb gelungen (Server nicht erreicht); die App bietet „Erneut versuchen“ oder Abmelden.',
  'session.signedIn': 'Jemand ist angemeldet und nutzt die App gemäß seiner Rolle.',
  'session.signedIn.routing': 'Die App prüft, ob das Konto schon aktiviert ist.',
  'session.signedIn.active': 'Das Konto ist aktiv; die Person sieht die Seiten ihrer Rolle.',
  'session.signedIn.inactive':
    'Das Konto ist noch nicht aktiviert; die App bittet um den Aktivierungscode.',
  'session.signedIn.inactive.idle':
    'Die Person sieht das Feld für den Aktivierungscode und kann ihn absenden.',
  'session.signedIn.inactive.activating':
    'Der Aktivierungscode wird geprüft; der Knopf zeigt, dass die App beschäftigt ist.',
  'session.signedIn.inactive.failed':
    'Die Aktivierung ist fehlgeschlagen; eine Fehlermeldung erscheint und ein Code kann erneut gesendet werden.',
  'session.loggingOut': 'Die Person wird abgemeldet; gleich erscheint wieder die Anmeldung.',
  'slotPicker.picking':
    'Die Auswahl eines freien Termins: nach Tag oder Woche blättern und einen Termin anklicken.',
  'slotPicker.picking.checking':
    'Die App prüft, ob die freien Termine schon vorliegen oder geladen werden müssen.',
  'slotPicker.picking.waiting':
    'Es fehlen noch Angaben (z. B. Terminart oder Dauer); erst dann werden freie Termine gezeigt.',
  'slotPicker.picking.loading':
    'Die freien Termine werden geladen; die Liste zeigt einen Ladehinweis.',
  'slotPicker.picking.loadFailed':
    'Die freien Termine konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'slotPicker.picking.choosing':
    'Die freien Termine werden angezeigt; ein Tag und ein Termin können gewählt werden.',
  'slotPicker.confirming':
    'Der gewählte Termin wird zur Bestätigung angezeigt; „Buchen“ oder zurück zur Auswahl.',
  'slotPicker.submitting':
    'Der gewählte Termin wird gebucht; der Knopf zeigt, dass die App beschäftigt ist.',
  'slotPicker.submitted': 'Der Termin ist gebucht; die Seite zeigt als Nächstes die Bestätigung.',
  'slotPicker.ended':
    'Die Buchung kann so nicht weitergehen (z. B. Termin abgesagt oder zu spät); die Seite erklärt den Grund.',
  'support.editing':
    'Die Person schreibt ihre Nachricht an den Support; Fehler stehen an den Feldern.',
  'support.submitting':
    'Die Nachricht wird gesendet; der Knopf zeigt, dass die App beschäftigt ist.',
  'support.failed':
    'Das Senden ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“ oder weiter bearbeiten.',
  'support.sent':
    'Die Nachricht ist angekommen; die Seite bestätigt das und bietet eine neue Nachricht an.',
  'webhookDetail.settings': 'Die Einstellungen des Webhooks: Adresse und an/aus.',
  'webhookDetail.settings.loading': 'Die Einstellungen des Webhooks werden geladen.',
  'webhookDetail.settings.loadFailed':
    'Die Einstellungen konnten nicht geladen werden; „Erneut versuchen“ ist möglich.',
  'webhookDetail.settings.editing':
    'Der Superadmin bearbeitet Adresse und an/aus und kann speichern; Fehler stehen an den Feldern.',
  'webhookDetail.settings.saving':
    'Die Einstellungen werden gespeichert (beim ersten Mal erscheint danach das Signatur-Geheimnis).',
  'webhookDetail.settings.saveFailed':
    'Das Speichern ist fehlgeschlagen; eine Fehlermeldung bietet „Erneut versuchen“ oder weiter bearbeiten.',
  'webhookDetail.rotation': 'Das Erneuern des Signatur-Geheimnisses.',
  'webhookDetail.rotation.idle':
    '„Geheimnis erneuern“ ist möglich, sobald der Webhook eingerichtet ist.',
  'webhookDetail.rotation.asking':
    'Die App fragt nach, ob das Geheimnis erneuert werden soll (das alte gilt noch 24 Stunden).',
  'webhookDetail.rotation.rotating':
    'Das neue Geheimnis wird erstellt; danach wird es einmalig angezeigt.',
  'webhookDetail.rotation.failed':
    'Das Erneuern ist fehlgeschlagen; „Erneut versuchen“ oder „Abbrechen“.',
  'webhookDetail.test': 'Das Senden eines Testereignisses.',
  'webhookDetail.test.idle':
    '„Testereignis senden“ ist möglich, sobald der Webhook eingerichtet ist.',
  'webhookDetail.test.sending':
    'Ein Testereignis wird eingereiht; der Knopf zeigt, dass die App beschäftigt ist.',
  'webhookDetail.test.sent': 'Das Testereignis ist eingereiht; es erscheint im Protokoll.',
  'webhookDetail.test.failed':
    'Das Testereignis konnte nicht gesendet werden; eine Fehlermeldung erscheint, erneut senden ist möglich.',
  'webhookDetail.log': 'Das Protokoll der letzten Zustellungen mit allen Versuchen.',
  'webhookDetail.log.loading': 'Das Zustellprotokoll wird geladen.',
  'webhookDetail.log.ready':
    'Das Protokoll zeigt die letzten Nachrichten; eine kann erneut zugestellt werden (ausstehende werden automatisch aktualisiert).',
  'webhookDetail.log.failed':
    'Das Protokoll konnte nicht geladen werden; „Aktualisieren“ ist möglich.',
  'webhookDetail.log.redelivering':
    'Eine Nachricht wird erneut zugestellt; danach lädt das Protokoll neu.',
  'webhookDetail.log.redeliverFailed':
    'Die erneute Zustellung ist fehlgeschlagen; eine Fehlermeldung erscheint, erneut versuchen ist möglich.',
  'webhookList.loading': 'Die Webhooks werden geladen; die Liste zeigt einen Ladehinweis.',
  'webhookList.ready': 'Die Webhooks je Ereignistyp werden angezeigt; einer kann geöffnet werden.',
  'webhookList.failed':
    'Die Webhooks konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'session.signedOut': 'Niemand ist angemeldet; die App zeigt die Anmeldung.',
  'documentEditor.loading':
    'Das Dokument (Terminzusammenfassung oder Patientenkarte) wird geladen; der Editor zeigt einen Ladehinweis.',
  'documentEditor.loadFailed':
    'Das Dokument konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'documentEditor.absent':
    'Das Dokument gibt es noch nicht; der Coach sieht die leere Vorlage, die erste Eingabe legt es an.',
  'documentEditor.idle':
    'Das Dokument ist geladen und unverändert; der Coach kann schreiben oder unterschreiben.',
  'documentEditor.dirty':
    'Der Coach hat etwas geändert, das noch nicht gespeichert ist; nach einer kurzen Tipp-Pause wird automatisch gespeichert.',
  'documentEditor.saving': 'Der Entwurf wird gespeichert; der Coach kann weiterschreiben.',
  'documentEditor.checkingStale':
    'Jemand anderes hat das Dokument inzwischen geändert; die App holt dessen Fassung, um sie zu vergleichen.',
  'documentEditor.saved':
    'Alles ist gespeichert; der Editor zeigt „gespeichert“, das Dokument kann unterschrieben werden.',
  'documentEditor.offlineRetrying':
    'Keine Verbindung; die Änderungen bleiben erhalten und werden automatisch gespeichert, sobald es wieder geht.',
  'documentEditor.failed':
    'Das Speichern ist fehlgeschlagen; die Änderungen bleiben erhalten, eine Meldung bietet „Erneut versuchen“.',
  'documentEditor.conflict':
    'Das Dokument wurde gleichzeitig von jemand anderem geändert; der Coach entscheidet, welche Fassung gilt.',
  'documentEditor.conflict.theirsFailed':
    'Die andere Fassung konnte nicht geladen werden; eine Meldung bietet „Erneut versuchen“.',
  'documentEditor.conflict.choosing':
    'Beide Fassungen werden gezeigt; der Coach behält seine, übernimmt die andere oder führt sie zusammen.',
  'documentEditor.leaving':
    'Der Coach will die Seite mit ungespeicherten Änderungen verlassen; die App fragt, ob er wirklich gehen will.',
  'documentEditor.left': 'Der Coach hat die Seite verlassen.',
  'documentEditor.confirmingSign':
    'Die App fragt nach, ob das Dokument unterschrieben werden soll (danach ist es nicht mehr änderbar).',
  'documentEditor.signing':
    'Das Dokument wird unterschrieben; der Knopf zeigt, dass die App beschäftigt ist.',
  'documentEditor.signed':
    'Das Dokument ist unterschrieben und nur noch lesbar; Nachträge und Prüfkommentare sind möglich.',
  'documentEditor.signed.viewing':
    'Das unterschriebene Dokument wird angezeigt; ein Nachtrag oder ein Prüfkommentar kann hinzugefügt werden.',
  'documentEditor.signed.commentSubmitting':
    'Ein Prüfkommentar zum unterschriebenen Dokument wird gespeichert.',
  'documentEditor.signed.amending': 'Ein Formular für einen Nachtrag (Grund und Text) ist offen.',
  'documentEditor.signed.amendSubmitting':
    'Der Nachtrag wird gespeichert; das Formular zeigt, dass die App beschäftigt ist.',
  'availabilityWeek.starting':
    'Die Verfügbarkeitsseite öffnet sich; die App entscheidet, ob erst ein Coach gewählt werden muss.',
  'availabilityWeek.loadingCoaches':
    'Die Coaches zur Auswahl werden geladen; ein Ladehinweis ist sichtbar.',
  'availabilityWeek.coachesFailed':
    'Die Coaches konnten nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“.',
  'availabilityWeek.noCoach':
    'Es gibt keinen Coach, dessen Verfügbarkeit gezeigt werden kann; die Seite erklärt das.',
  'availabilityWeek.loading':
    'Die Verfügbarkeiten der Woche werden geladen; die Wochenansicht zeigt einen Ladehinweis.',
  'availabilityWeek.failed':
    'Die Woche konnte nicht geladen werden; eine Fehlermeldung bietet „Erneut versuchen“, blättern geht weiterhin.',
  'availabilityWeek.ready':
    'Die Woche mit den wiederkehrenden Zeitblöcken und Ausnahmen des Coaches wird angezeigt.',
  'availabilityWeek.ready.idle':
    'Die Woche ist zu sehen; man kann blättern, den Coach wechseln, einen Block anlegen oder einen anklicken.',
  'availabilityWeek.ready.selected':
    'Ein Zeitblock ist ausgewählt; die ganze Serie oder nur dieser Termin kann bearbeitet oder gelöscht werden.',
  'availabilityWeek.ready.editing':
    'Ein Formular zum Anlegen oder Ändern eines Zeitblocks ist offen; Fehler stehen an den Feldern.',
  'availabilityWeek.ready.saving': 'Der Zeitblock wird gespeichert; danach lädt die Woche neu.',
  'availabilityWeek.ready.confirmingDelete':
    'Die App fragt nach, ob die Serie bzw. dieser eine Termin wirklich gelöscht werden soll.',
  'availabilityWeek.ready.deleting': 'Der Zeitblock wird gelöscht; danach lädt die Woche neu.',
  'authFlow.account_deleted': 'Das Konto ist gelöscht; die Person wird abgemeldet.',
  'authFlow.checkingSession':
    'Das Profil öffnet sich; die App prüft, ob die Person noch angemeldet ist.',
  'authFlow.credential_onboarding_chooser':
    'Die Auswahl, wie sich die Person künftig anmelden möchte (Passkey oder Passwort).',
  'authFlow.credential_onboarding_chooser.idle':
    'Die Auswahl, wie sich die Person künftig anmelden möchte (Passkey oder Passwort): der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.credential_onboarding_chooser.init':
    'Die Auswahl, wie sich die Person künftig anmelden möchte (Passkey oder Passwort): die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.credential_onboarding_chooser.submitting':
    'Die Auswahl, wie sich die Person künftig anmelden möchte (Passkey oder Passwort): die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.device_trust':
    'Die Frage, ob diesem Gerät künftig vertraut werden soll (ohne zweiten Faktor).',
  'authFlow.device_trust.idle':
    'Die Frage, ob diesem Gerät künftig vertraut werden soll (ohne zweiten Faktor): der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.device_trust.init':
    'Die Frage, ob diesem Gerät künftig vertraut werden soll (ohne zweiten Faktor): die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.device_trust.submitting':
    'Die Frage, ob diesem Gerät künftig vertraut werden soll (ohne zweiten Faktor): die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.error':
    'Der Anmeldedienst meldet einen Fehler (z. B. abgelaufener Vorgang); eine Fehlerseite erscheint, „Weiter“ beginnt von vorn.',
  'authFlow.failed':
    'Ein unerwarteter Fehler (z. B. keine Verbindung); eine Fehlerseite erscheint, „Weiter“ beginnt von vorn.',
  'authFlow.handlerNotFound':
    'Der Anmeldedienst verlangt einen Schritt, den die App nicht kennt; eine Fehlerseite erscheint, „Weiter“ beginnt von vorn.',
  'authFlow.initializing':
    'Die Anmeldung öffnet sich; die App prüft, ob die Person gerade von einem externen Anbieter (z. B. Google) zurückkommt.',
  'authFlow.login_init': 'Die Anmeldemaske mit dem Feld für E-Mail-Adresse bzw. Benutzernamen.',
  'authFlow.login_init.autofill':
    'Die Anmeldemaske wartet auf die Eingabe; nebenbei bietet der Browser gespeicherte Passkeys zum Auswählen an.',
  'authFlow.login_init.idle':
    'Die Anmeldemaske mit dem Feld für E-Mail-Adresse bzw. Benutzernamen: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_init.init':
    'Die Anmeldemaske mit dem Feld für E-Mail-Adresse bzw. Benutzernamen: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_init.submitting':
    'Die Anmeldemaske mit dem Feld für E-Mail-Adresse bzw. Benutzernamen: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_method_chooser':
    'Die Auswahl, wie sich die Person anmelden möchte (Passwort, Code per E-Mail, Passkey …).',
  'authFlow.login_method_chooser.idle':
    'Die Auswahl, wie sich die Person anmelden möchte (Passwort, Code per E-Mail, Passkey …): der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_method_chooser.init':
    'Die Auswahl, wie sich die Person anmelden möchte (Passwort, Code per E-Mail, Passkey …): die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_method_chooser.submitting':
    'Die Auswahl, wie sich die Person anmelden möchte (Passwort, Code per E-Mail, Passkey …): die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_otp': 'Die Eingabe des Codes aus der Authenticator-App als zweiter Faktor.',
  'authFlow.login_otp.coolingDown':
    'Die Eingabe des Codes aus der Authenticator-App als zweiter Faktor: zu viele Versuche; ein Countdown läuft, bis es erneut versucht werden kann.',
  'authFlow.login_otp.idle':
    'Die Eingabe des Codes aus der Authenticator-App als zweiter Faktor: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_otp.init':
    'Die Eingabe des Codes aus der Authenticator-App als zweiter Faktor: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_otp.submitting':
    'Die Eingabe des Codes aus der Authenticator-App als zweiter Faktor: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_passkey': 'Die Anmeldung mit einem Passkey.',
  'authFlow.login_passkey.idle':
    'Die Anmeldung mit einem Passkey: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_passkey.init':
    'Die Anmeldung mit einem Passkey: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_passkey.prompting':
    'Die Anmeldung mit einem Passkey: der Browser fragt nach dem Passkey (Fingerabdruck, Gesicht oder PIN).',
  'authFlow.login_passkey.submitting':
    'Die Anmeldung mit einem Passkey: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_password': 'Die Eingabe des Passworts.',
  'authFlow.login_password.coolingDown':
    'Die Eingabe des Passworts: zu viele Versuche; ein Countdown läuft, bis es erneut versucht werden kann.',
  'authFlow.login_password.idle':
    'Die Eingabe des Passworts: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_password.init':
    'Die Eingabe des Passworts: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_password.submitting':
    'Die Eingabe des Passworts: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_password_recovery': 'Das Setzen eines neuen Passworts nach „Passwort vergessen“.',
  'authFlow.login_password_recovery.idle':
    'Das Setzen eines neuen Passworts nach „Passwort vergessen“: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_password_recovery.init':
    'Das Setzen eines neuen Passworts nach „Passwort vergessen“: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_password_recovery.submitting':
    'Das Setzen eines neuen Passworts nach „Passwort vergessen“: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.login_security_key': 'Die Anmeldung mit einem Sicherheitsschlüssel als zweitem Faktor.',
  'authFlow.login_security_key.idle':
    'Die Anmeldung mit einem Sicherheitsschlüssel als zweitem Faktor: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.login_security_key.init':
    'Die Anmeldung mit einem Sicherheitsschlüssel als zweitem Faktor: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.login_security_key.submitting':
    'Die Anmeldung mit einem Sicherheitsschlüssel als zweitem Faktor: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.mfa_method_chooser': 'Die Auswahl der Methode für den zweiten Faktor.',
  'authFlow.mfa_method_chooser.idle':
    'Die Auswahl der Methode für den zweiten Faktor: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.mfa_method_chooser.init':
    'Die Auswahl des zweiten Faktors öffnet sich; gibt es nur eine Methode, wird sie automatisch gewählt.',
  'authFlow.mfa_method_chooser.submitting':
    'Die Auswahl der Methode für den zweiten Faktor: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.mfa_otp_secret_creation':
    'Das Einrichten einer Authenticator-App als zweiter Faktor (QR-Code und Bestätigungscode).',
  'authFlow.mfa_otp_secret_creation.idle':
    'Das Einrichten einer Authenticator-App als zweiter Faktor (QR-Code und Bestätigungscode): der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.mfa_otp_secret_creation.init':
    'Das Einrichten einer Authenticator-App als zweiter Faktor (QR-Code und Bestätigungscode): die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.mfa_otp_secret_creation.submitting':
    'Das Einrichten einer Authenticator-App als zweiter Faktor (QR-Code und Bestätigungscode): die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.mfa_security_key_creation':
    'Das Einrichten eines Sicherheitsschlüssels als zweiter Faktor.',
  'authFlow.mfa_security_key_creation.idle':
    'Das Einrichten eines Sicherheitsschlüssels als zweiter Faktor: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.mfa_security_key_creation.init':
    'Das Einrichten eines Sicherheitsschlüssels als zweiter Faktor: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.mfa_security_key_creation.submitting':
    'Das Einrichten eines Sicherheitsschlüssels als zweiter Faktor: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.onboarding_create_passkey':
    'Das Angebot, einen Passkey für künftige Anmeldungen anzulegen.',
  'authFlow.onboarding_create_passkey.idle':
    'Das Angebot, einen Passkey für künftige Anmeldungen anzulegen: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.onboarding_create_passkey.init':
    'Das Angebot, einen Passkey für künftige Anmeldungen anzulegen: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.onboarding_create_passkey.submitting':
    'Das Angebot, einen Passkey für künftige Anmeldungen anzulegen: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.onboarding_email': 'Die Angabe der E-Mail-Adresse für das Konto.',
  'authFlow.onboarding_email.idle':
    'Die Angabe der E-Mail-Adresse für das Konto: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.onboarding_email.init':
    'Die Angabe der E-Mail-Adresse für das Konto: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.onboarding_email.submitting':
    'Die Angabe der E-Mail-Adresse für das Konto: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.onboarding_username': 'Die Wahl eines Benutzernamens.',
  'authFlow.onboarding_username.idle':
    'Die Wahl eines Benutzernamens: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.onboarding_username.init':
    'Die Wahl eines Benutzernamens: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.onboarding_username.submitting':
    'Die Wahl eines Benutzernamens: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.onboarding_verify_passkey_attestation': 'Das Anlegen eines neuen Passkeys.',
  'authFlow.onboarding_verify_passkey_attestation.idle':
    'Das Anlegen eines neuen Passkeys: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.onboarding_verify_passkey_attestation.init':
    'Das Anlegen eines neuen Passkeys: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.onboarding_verify_passkey_attestation.prompting':
    'Das Anlegen eines neuen Passkeys: der Browser fragt nach dem Passkey (Fingerabdruck, Gesicht oder PIN).',
  'authFlow.onboarding_verify_passkey_attestation.submitting':
    'Das Anlegen eines neuen Passkeys: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.passcode_confirmation':
    'Die Eingabe des sechsstelligen Codes, der per E-Mail geschickt wurde; der Code kann auch erneut angefordert werden.',
  'authFlow.passcode_confirmation.form': 'Das Eingabefeld für den Code aus der E-Mail.',
  'authFlow.passcode_confirmation.form.coolingDown':
    'Die Eingabe des sechsstelligen Codes, der per E-Mail geschickt wurde: zu viele Versuche; ein Countdown läuft, bis es erneut versucht werden kann.',
  'authFlow.passcode_confirmation.form.idle':
    'Die Eingabe des sechsstelligen Codes, der per E-Mail geschickt wurde: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.passcode_confirmation.form.init':
    'Die Eingabe des sechsstelligen Codes, der per E-Mail geschickt wurde: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.passcode_confirmation.form.submitting':
    'Die Eingabe des sechsstelligen Codes, der per E-Mail geschickt wurde: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.passcode_confirmation.resend': 'Der Knopf „Code erneut senden“.',
  'authFlow.passcode_confirmation.resend.init':
    'Die App prüft, ob „Code erneut senden“ sofort möglich ist oder erst nach einer Wartezeit.',
  'authFlow.passcode_confirmation.resend.ready': '„Code erneut senden“ ist möglich.',
  'authFlow.passcode_confirmation.resend.waiting':
    '„Code erneut senden“ ist gesperrt; ein Countdown zeigt, wann es wieder geht.',
  'authFlow.password_creation': 'Das Festlegen eines Passworts.',
  'authFlow.password_creation.idle':
    'Das Festlegen eines Passworts: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.password_creation.init':
    'Das Festlegen eines Passworts: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.password_creation.submitting':
    'Das Festlegen eines Passworts: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.preflight':
    'Die Anmeldung prüft zu Beginn, was Browser und Gerät können (z. B. Passkeys).',
  'authFlow.preflight.detecting':
    'Die App prüft im Hintergrund, was Browser und Gerät können (z. B. Passkeys).',
  'authFlow.preflight.idle': 'Die Prüfung von Browser und Gerät wartet auf den nächsten Schritt.',
  'authFlow.preflight.init':
    'Die Anmeldung prüft zu Beginn, was Browser und Gerät können (z. B. Passkeys): die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.preflight.submitting':
    'Das Ergebnis der Geräteprüfung wird an den Anmeldedienst geschickt; ein Ladehinweis ist sichtbar.',
  'authFlow.profile_init':
    'Das Profil mit E-Mail-Adressen, Passwort, Passkeys und Sicherheitseinstellungen.',
  'authFlow.profile_init.deletingAccount':
    'Im Profil ist das Löschen des Kontos geöffnet; es braucht eine ausdrückliche Bestätigung.',
  'authFlow.profile_init.idle':
    'Das Profil mit E-Mail-Adressen, Passwort, Passkeys und Sicherheitseinstellungen: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.profile_init.init':
    'Das Profil mit E-Mail-Adressen, Passwort, Passkeys und Sicherheitseinstellungen: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.profile_init.renaming':
    'Im Profil ist das Umbenennen eines Passkeys oder Sicherheitsschlüssels geöffnet.',
  'authFlow.profile_init.submitting':
    'Das Profil mit E-Mail-Adressen, Passwort, Passkeys und Sicherheitseinstellungen: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.profile_init.succeeded':
    'Die Änderung im Profil ist gelungen; kurz erscheint eine Bestätigung, dann das aktualisierte Profil.',
  'authFlow.registration_init': 'Der Beginn der Registrierung mit der E-Mail-Adresse.',
  'authFlow.registration_init.idle':
    'Der Beginn der Registrierung mit der E-Mail-Adresse: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.registration_init.init':
    'Der Beginn der Registrierung mit der E-Mail-Adresse: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.registration_init.submitting':
    'Der Beginn der Registrierung mit der E-Mail-Adresse: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.restarting':
    'Die Anmeldung beginnt von vorn (z. B. nach Abmelden oder Wechsel zwischen Anmelden und Registrieren).',
  'authFlow.starting':
    'Die Anmeldung wird beim Anmeldedienst gestartet; ein Ladehinweis ist sichtbar.',
  'authFlow.success':
    'Die Anmeldung ist gelungen; die Person ist angemeldet und die App geht weiter.',
  'authFlow.thirdparty': 'Die Anmeldung über einen externen Anbieter (z. B. Google).',
  'authFlow.thirdparty.coolingDown':
    'Die Anmeldung über einen externen Anbieter (z. B. Google): zu viele Versuche; ein Countdown läuft, bis es erneut versucht werden kann.',
  'authFlow.thirdparty.idle':
    'Die Anmeldung über einen externen Anbieter ist nicht gelungen; eine Meldung erscheint und die Person kann es erneut versuchen.',
  'authFlow.thirdparty.init':
    'Die Anmeldung über einen externen Anbieter: die App entscheidet, ob sie dorthin weiterleitet oder dessen Antwort verarbeitet.',
  'authFlow.thirdparty.redirecting':
    'Die Person wird zum externen Anbieter (z. B. Google) weitergeleitet.',
  'authFlow.thirdparty.submitting':
    'Die Anmeldung über einen externen Anbieter (z. B. Google): die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
  'authFlow.webauthn_credential_verification':
    'Das Anlegen eines Passkeys bzw. Sicherheitsschlüssels.',
  'authFlow.webauthn_credential_verification.idle':
    'Das Anlegen eines Passkeys bzw. Sicherheitsschlüssels: der Bildschirm wartet auf die Eingabe bzw. Auswahl der Person.',
  'authFlow.webauthn_credential_verification.init':
    'Das Anlegen eines Passkeys bzw. Sicherheitsschlüssels: die App entscheidet beim Öffnen, ob ein Schritt automatisch läuft, ein Countdown nötig ist oder auf die Person gewartet wird.',
  'authFlow.webauthn_credential_verification.prompting':
    'Das Anlegen eines Passkeys bzw. Sicherheitsschlüssels: der Browser fragt nach dem Passkey (Fingerabdruck, Gesicht oder PIN).',
  'authFlow.webauthn_credential_verification.submitting':
    'Das Anlegen eines Passkeys bzw. Sicherheitsschlüssels: die Eingabe wird an den Anmeldedienst geschickt; der Knopf zeigt, dass die App beschäftigt ist.',
};
