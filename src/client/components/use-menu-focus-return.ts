/**
 * Gives the focus back to a menu's button once the closed menu has gone, if it was left inside the menu. Its
 * parts go to the menu's: `onExitComplete` to Menu.Root, `triggerRef` to Menu.Trigger, `contentRef` to Menu.Content.
 *
 * Why: Ark's menu (@zag-js/menu) moves the focus into the open menu one animation frame after it opens and after
 * every arrow key. When Escape closes the menu before that frame (the main thread busy, e.g. with the first sync
 * after login), the menu first returns the focus to its button and then the late frame puts it back into the
 * closing menu; when that unmounts, the focus falls to the page's body and a keyboard user has lost their place.
 */
import { useCallback, useRef } from 'react';

export function useMenuFocusReturn() {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const onExitComplete = useCallback(() => {
    const trigger = triggerRef.current;
    if (!trigger?.isConnected) return; // the menu went with its screen (a menu item navigated, logged out)
    const document = trigger.ownerDocument;
    const active = document.activeElement;
    // Only focus that nobody took: focus the user moved elsewhere (a click outside, a dialog an item opened) stays.
    if (active === null || active === document.body || contentRef.current?.contains(active)) trigger.focus({ preventScroll: true });
  }, []);
  return { triggerRef, contentRef, onExitComplete };
}
