import type { ComponentType } from 'react';
import { HomePage } from '../views/home/HomePage';
import { tKey } from '../i18n/keys';
import type { BreadcrumbRoute } from './breadcrumbs';

/** A page of the app (specification section 2). */
export interface AppRoute extends BreadcrumbRoute {
  component: ComponentType;
}

/**
 * The route table, in matching order. Feature issues add their pages here; protected pages get
 * wrapped by the session guard when it exists. Unknown paths render the not-found page.
 */
export const routes: readonly AppRoute[] = [
  { path: '/', breadcrumb: tKey('breadcrumbs.home'), component: HomePage },
];
