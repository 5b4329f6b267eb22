/**
 * Keyboard focus for a modal dialog. While it is open, Tab and Shift+Tab cycle through its own controls:
 * the page behind is covered and `aria-modal`, so focus that wandered there would be on something a person
 * cannot see or use. When it closes, focus goes back to whatever had it when the dialog opened (the button
 * that opened it), so someone on the keyboard carries on from where they were instead of from the top.
 */
import { useEffect, type RefObject } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'audio[controls]',
  'video[controls]',
  '[tabindex]',
].join(',');

/** The controls Tab reaches inside `container`, in order: enabled, not taken out with tabindex -1, and drawn. */
export function tabbableElements(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.tabIndex >= 0 && element.getClientRects().length > 0);
}

/**
 * Traps focus in `dialog` from mount to unmount. `initialFocus` gets focus on opening (the first control
 * when absent). The dialog element itself should carry tabIndex -1: it takes focus when it has no control.
 */
export function useFocusTrap(dialog: RefObject<HTMLElement | null>, initialFocus?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const container = dialog.current;
    if (container === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusFirst = () => (tabbableElements(container)[0] ?? container).focus();
    if (!container.contains(document.activeElement)) {
      if (initialFocus?.current) initialFocus.current.focus();
      else focusFirst();
    }

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.defaultPrevented) return;
      const tabbable = tabbableElements(container);
      const first = tabbable[0];
      const last = tabbable.at(-1);
      const active = document.activeElement;
      const outside = !container.contains(active);
      if (first === undefined || last === undefined) {
        event.preventDefault();
        container.focus();
      } else if (event.shiftKey && (active === first || active === container || outside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus can leave without Tab too (a click on the page behind the backdrop's edge, a script): bring it back.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !container.contains(event.target)) focusFirst();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      if (opener?.isConnected === true) opener.focus();
    };
  }, [dialog, initialFocus]);
}
