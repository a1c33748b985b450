import { useEffect } from 'react';

/**
 * While `active` (the editor's `unsaved` tag), leaving asks first: the browser's own question
 * on reload or closing the tab (`beforeunload`), and a confirmation before an in-app link
 * leaves the page. Typed text also stays in the tab's local copy either way.
 */
export function useLeaveGuard(active: boolean, question: string, onLeave: () => void) {
  useEffect(() => {
    if (!active) return undefined;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      onLeave();
      event.preventDefault();
      event.returnValue = question;
    };
    const click = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return;
      if (link.origin !== window.location.origin) return;
      if (link.pathname === window.location.pathname) return;
      onLeave();
      if (!window.confirm(question)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [active, question, onLeave]);
}
