/**
 * While a long write runs in the page (the CSV import writes one machine after the other), closing the tab or
 * reloading asks first: the browser's own "Seite verlassen?" dialog. Without it, a tab closed halfway left half of
 * the file imported, and the same file chosen again was refused for every machine already there.
 * Navigation inside the app needs no guard: the write goes on when the screen changes.
 */
type UnloadTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/** Asks before the page unloads until the returned release is called (calling it twice is harmless). */
export function holdPageOpen(target: UnloadTarget = window): () => void {
  const ask = (event: Event) => {
    event.preventDefault();
    // Chromium before 119 and Safari ask only when returnValue is set.
    (event as BeforeUnloadEvent).returnValue = '';
  };
  target.addEventListener('beforeunload', ask);
  return () => target.removeEventListener('beforeunload', ask);
}
