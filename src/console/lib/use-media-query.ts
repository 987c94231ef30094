import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, following it as it changes (window resized, phone turned). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

/** Phones and narrow windows: where side-by-side layouts do not fit (the console's 760px breakpoint). */
export const NARROW = '(max-width: 760px)';
