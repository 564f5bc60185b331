import { useEffect, useRef } from 'react';
import { highlightWithin } from '../util/highlight';

/** Server-sanitised post HTML, with code blocks highlighted after it is shown. */
export function PostContent({ html, className = '' }: { html: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void highlightWithin(ref.current);
  }, [html]);
  // The server stores posts as sanitised HTML rendered at write time (DESIGN rule 10).
  return <div ref={ref} dir="auto" className={`post-content ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
