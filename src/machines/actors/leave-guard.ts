import { fromCallback } from 'xstate';
import type { DocumentEditorEvent } from '../document-editor.machine';

/**
 * The document editor's leave guard, running while something is unsaved:
 * - reload or closing the tab: the browser's own question (`beforeunload`), and a save at once
 *   (`editor.saveNow`); the local copy keeps the text in this tab either way;
 * - an in-app link to another page: held back and handed to the machine as `leave.request`,
 *   which asks in the page's own dialog and then follows it (or not).
 * Everything is removed when the machine leaves the unsaved states.
 */
export const createLeaveGuardLogic = (win: Window = window) =>
  fromCallback<DocumentEditorEvent>(({ sendBack }) => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      sendBack({ type: 'editor.saveNow' });
      event.preventDefault();
      // Older browsers ask only with a returnValue; the text itself is the browser's.
      event.returnValue = '';
    };
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return; // new tab
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (
        !(link instanceof HTMLAnchorElement) ||
        link.target === '_blank' ||
        link.hasAttribute('download')
      )
        return;
      if (link.origin !== win.location.origin) return;
      if (link.pathname === win.location.pathname) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      sendBack({ type: 'leave.request', href: `${link.pathname}${link.search}${link.hash}` });
    };
    win.addEventListener('beforeunload', beforeUnload);
    win.document.addEventListener('click', click, true);
    return () => {
      win.removeEventListener('beforeunload', beforeUnload);
      win.document.removeEventListener('click', click, true);
    };
  });
