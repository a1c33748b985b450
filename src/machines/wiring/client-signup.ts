import { createSignupActors } from '../actors/client';
import { clientSignupMachine } from '../client-signup.machine';
import type { RouteEffects } from './effects';

/** The client sign-up's machine wired to the API and the session. */

export const wireClientSignup = ({ api, session }: RouteEffects) =>
  clientSignupMachine.provide({ actors: createSignupActors({ api, session }) });
