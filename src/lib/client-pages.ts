/** Pages a client uses: their sign-in is the client one, not the staff /login. */
export const CLIENT_PAGE = /^\/(client-signup|meeting|meetingfinished)(\/|$)/;

/** Where a signed-in client sees their appointment ("Mein Termin") and cancels or moves it. */
export const CLIENT_HOME = '/client-signup/login';
