/**
 * What each state means to a person using the app, in German, for the gallery's product
 * owners (by state id, `machine.state.sub`). A machine's own `description` wins where it has
 * one. tests/unit/shell-diagrams.test.ts refuses meanings for states that no longer exist.
 */
export const MEANINGS: Record<string, string> = {
  'session.signedOut': 'Niemand ist angemeldet; die App zeigt die Anmeldung.',
};
