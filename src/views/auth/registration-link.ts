import { createContext } from 'react';

/**
 * Where the widget's "Registrieren" leads when the page has its own sign-up (the client
 * sign-up form): a link there instead of the widget's own registration flow. Null: the flow.
 */
export const RegistrationHref = createContext<string | null>(null);
