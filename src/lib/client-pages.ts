/** Pages a client uses: their sign-in is the client one, not the staff /login. */
export const CLIENT_PAGE = /^\/(client-signup|mein-termin|meeting|meetingfinished)(\/|$)/;

/** Where a signed-in client sees their appointment ("Mein Termin") and cancels, moves or joins it. */
export const CLIENT_HOME = '/mein-termin';

/** The client sign-in (links in e-mails lead here); a signed-in client goes on to CLIENT_HOME. */
export const CLIENT_SIGN_IN = '/client-signup/login';

/** The signed-in client's own signed documents (read-only). */
export const CLIENT_DOCUMENTS = '/mein-termin/dokumente';
