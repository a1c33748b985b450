import { createAuthFlowActors, createCopyActors, type AuthFlowDeps } from '../auth/actors';
import { authFlowMachine } from '../auth/flow.machine';
import { copyMachine } from '../auth/support.machines';
import type { RouteEffects } from './effects';

/**
 * The sign-in widget's flow against the provider (/login, /profile, the sign-up's account
 * step); `browser` replaces the browser parts (tests). Its own file: /login loads it.
 */
export const wireAuthFlow = (
  { auth, language }: RouteEffects,
  browser: Partial<Omit<AuthFlowDeps, 'authApi' | 'getToken' | 'authEvents'>> = {},
) => authFlowMachine.provide({ actors: createAuthFlowActors({ ...auth, language, ...browser }) });

/**
 * Copies a text to the browser's clipboard (an activation code, a TOTP secret). A small
 * widget inside a page that needs nothing from the app, so it is wired once here.
 */
export const clipboardCopyMachine = copyMachine.provide({ actors: createCopyActors({}) });
