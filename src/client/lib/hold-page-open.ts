/**
 * While a long write runs in the page (the CSV import, one transaction that commits at its end), closing the tab
 * or reloading asks first: the browser's own "Seite verlassen?" dialog — closed halfway, the import is gone. (Found
 * when the import still wrote one machine per transaction: a tab closed halfway left half of the file imported.)
 * Also while a form holds chosen photos, which its kept draft cannot keep (stores/kept-drafts.ts). Navigation inside
 * the app needs no guard: the write goes on when the screen changes, and a form's typed text is kept.
 */
type UnloadTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/** Asks before the page unloads until the returned release is called (calling it twice is harmless). */
export function holdPageOpen(target: UnloadTarget = window): () => void {
  const ask = (event: Event) => {
    event.preventDefault();
    // Chromium before 119 and Safari ask only when returnValue is set; only a BeforeUnloadEvent's may be (a plain
    // Event's is read-only, and setting it threw out of the listener).
    if (typeof BeforeUnloadEvent !== 'undefined' && event instanceof BeforeUnloadEvent) event.returnValue = '';
  };
  target.addEventListener('beforeunload', ask);
  return () => target.removeEventListener('beforeunload', ask);
}
