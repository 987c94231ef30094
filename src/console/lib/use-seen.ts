import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

/**
 * Whether the element has come within `margin` of the viewport; once true it stays true. For work worth doing only
 * for what is about to be seen (one request per item of a long list).
 */
export function useSeen(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, seen]);
  return seen;
}
