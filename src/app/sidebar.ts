import { createStore } from '@xstate/store';

/**
 * The navigation's open/collapsed state (specification sections 2, 4 and 9): open by default
 * when the window is wider than 1350 px; below 768 px it is a drawer, closed by default and
 * closed again after navigating. The person's own choice is kept until the window moves into
 * another of these three ranges.
 */
export const SIDEBAR_OPEN_MIN_WIDTH = 1350;
export const MOBILE_BREAKPOINT = 768;

export type Layout = 'mobile' | 'medium' | 'wide';

export const layoutFor = (width: number): Layout =>
  width < MOBILE_BREAKPOINT ? 'mobile' : width > SIDEBAR_OPEN_MIN_WIDTH ? 'wide' : 'medium';

export const openByDefault = (layout: Layout): boolean => layout === 'wide';

export function createSidebarStore(initialWidth: number) {
  const layout = layoutFor(initialWidth);
  return createStore({
    context: { layout, open: openByDefault(layout) },
    on: {
      viewportChanged: (context, event: { width: number }) => {
        const next = layoutFor(event.width);
        if (next === context.layout) return context;
        return { layout: next, open: openByDefault(next) };
      },
      toggled: (context) => ({ ...context, open: !context.open }),
      closed: (context) => ({ ...context, open: false }),
      /** A menu item was followed: the drawer gets out of the way, the sidebar stays. */
      navigated: (context) => (context.layout === 'mobile' ? { ...context, open: false } : context),
    },
  });
}

export type SidebarStore = ReturnType<typeof createSidebarStore>;
