import type { OutgoingPage } from '../../../shared/types.js';
import { badRequest } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';

/** An address the interstitial may send to: absolute http(s) only (never javascript: or data:). */
export function outgoingTarget(raw: string | undefined): string {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw badRequest('error:invalid-url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('error:invalid-url');
  return url.href;
}

/**
 * /outgoing?url=: the page between the forum and an external address (NodeBB's), shown when
 * `useOutgoingLinksPage` is on and the address contains no whitelist entry (the client
 * decides, spec §5). Never indexed.
 */
const outgoingPage = definePage<OutgoingPage>({
  path: '/outgoing',
  template: 'outgoing',
  async load({ ctx, query }) {
    const url = outgoingTarget(query.url);
    const s = await ctx.settings.get();
    return {
      title: '[[notifications:outgoing-link]]',
      breadcrumbs: [{ text: '[[notifications:outgoing-link]]' }],
      outgoing: url,
      siteTitle: s.siteTitle,
      meta: [{ name: 'robots', content: 'noindex, nofollow' }],
    };
  },
});

/** Discoverability pages. */
export const feedPages = [outgoingPage];
