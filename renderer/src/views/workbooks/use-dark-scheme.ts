import { useEffect, useState } from 'react';

/** Whether the system is in dark mode now: the grid paints on a canvas, which CSS variables do not reach. */
export function useDarkScheme(): boolean {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : undefined;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const follow = (event: MediaQueryListEvent): void => setDark(event.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [query]);
  return dark;
}
