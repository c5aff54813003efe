import { useEffect } from 'react';

/**
 * Sets `data-app-state="ready"` on the root once the first useful screen is painted: tests and
 * the bench wait for it instead of sleeping.
 */
export function useReadyMarker(ready: boolean): void {
  useEffect(() => {
    const root = document.getElementById('root');
    if (root) root.dataset.appState = ready ? 'ready' : 'loading';
  }, [ready]);
}
