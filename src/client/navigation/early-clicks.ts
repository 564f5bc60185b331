import { EARLY_CLICK_RETRY_MS } from '../../shared/constants';
import { isNonNavigating } from './links';

/** Spec §2: before the app loads, clicks on buttons and non-navigating links are held back. */
export function isHeldEarlyClick(tagName: string, href: string | null): boolean {
  const tag = tagName.toLowerCase();
  if (tag === 'button') return true;
  return tag === 'a' && isNonNavigating(href);
}

/**
 * Holds early clicks until release(), then replays them. Attaches once the body exists,
 * retrying every 50 ms.
 */
export function holdEarlyClicks(doc: Document): { release(): void } {
  const held: HTMLElement[] = [];
  let released = false;
  const onClick = (e: MouseEvent) => {
    const el = (e.target as Element | null)?.closest?.('button, a') as HTMLElement | null;
    if (!el || !isHeldEarlyClick(el.tagName, el.getAttribute('href'))) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push(el);
  };
  const attach = () => {
    if (released) return;
    if (!doc.body) {
      setTimeout(attach, EARLY_CLICK_RETRY_MS);
      return;
    }
    doc.body.addEventListener('click', onClick, true);
  };
  attach();
  return {
    release() {
      released = true;
      doc.body?.removeEventListener('click', onClick, true);
      for (const el of held.splice(0)) if (el.isConnected) el.click();
    },
  };
}
