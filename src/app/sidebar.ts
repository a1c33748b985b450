import { createActor, fromTransition } from 'xstate';
import type { InspectOption } from './inspector';

/**
 * The navigation's open/collapsed state (the specification's screens, states and constants): open
 * by default when the window is wider than 1350 px; below 768 px it is a drawer, closed by default
 * and closed again after navigating. The person's own choice is kept until the window moves into
 * another of these three ranges.
 *
 * A small shared fact: a transition-function actor of xstate, which every page loads anyway
 * (docs/decisions/0021-first-screen-performance.md).
 */
export const SIDEBAR_OPEN_MIN_WIDTH = 1350;
export const MOBILE_BREAKPOINT = 768;

export type Layout = 'mobile' | 'medium' | 'wide';

export const layoutFor = (width: number): Layout =>
  width < MOBILE_BREAKPOINT ? 'mobile' : width > SIDEBAR_OPEN_MIN_WIDTH ? 'wide' : 'medium';

export const openByDefault = (layout: Layout): boolean => layout === 'wide';

export interface SidebarContext {
  layout: Layout;
  open: boolean;
}

export type SidebarEvent =
  | { type: 'viewportChanged'; width: number }
  | { type: 'toggled' }
  | { type: 'closed' }
  /** A menu item was followed: the drawer gets out of the way, the sidebar stays. */
  | { type: 'navigated' };

export function sidebarTransition(context: SidebarContext, event: SidebarEvent): SidebarContext {
  switch (event.type) {
    case 'viewportChanged': {
      const next = layoutFor(event.width);
      if (next === context.layout) return context;
      return { layout: next, open: openByDefault(next) };
    }
    case 'toggled':
      return { ...context, open: !context.open };
    case 'closed':
      return { ...context, open: false };
    case 'navigated':
      return context.layout === 'mobile' ? { ...context, open: false } : context;
  }
}

/** The sidebar actor, started. */
export function createSidebarStore(initialWidth: number, inspect?: InspectOption) {
  const layout = layoutFor(initialWidth);
  const logic = fromTransition(sidebarTransition, { layout, open: openByDefault(layout) });
  return createActor(logic, inspect ? { inspect } : {}).start();
}

export type SidebarStore = ReturnType<typeof createSidebarStore>;
