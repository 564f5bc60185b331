/** Scrolls to a post by its index (0-based data-index); true when found. */
export function scrollToPostIndex(index: number, smooth = false): boolean {
  const el = document.querySelector<HTMLElement>(`[data-index="${index}"]`);
  if (!el) return false;
  el.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
  el.classList.add('highlight');
  setTimeout(() => el.classList.remove('highlight'), 2500);
  return true;
}

/**
 * After a non-first navigation: to the hash target, else the post index (postIndex is the
 * 1-based position from the URL), else the top. Runs after React has committed the page.
 */
export function scrollAfterNavigation(url: URL, postIndex: number | undefined): void {
  requestAnimationFrame(() => {
    if (url.hash) {
      const el = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (el) return el.scrollIntoView();
    }
    if (postIndex && postIndex > 1 && scrollToPostIndex(postIndex - 1)) return;
    window.scrollTo(0, 0);
  });
}
