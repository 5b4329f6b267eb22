/**
 * Whether an element has come into view (or near it): true from the first time it is seen. Thumbnails load
 * only then, so a session of thousands of steps fetches the images of the rows a person looks at.
 */
import { useEffect, useState, type RefObject } from 'react';

export function useVisible(element: RefObject<Element | null>, rootMargin = '200px'): boolean {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (visible || target === null) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, rootMargin, visible]);
  return visible;
}
