import { mapTextOutsideCode } from '../emoji/html-text.js';

// A mention: @ then a slug (letters, digits, _ . -), not preceded by a word character, @ or /
// (so e-mail addresses and paths are left alone); a trailing dot or hyphen ends the sentence.
const MENTION = /(^|[^\p{L}\p{N}_@/.])@([\p{L}\p{N}_][\p{L}\p{N}_.-]{0,99})/gu;

const trimEnd = (slug: string) => slug.replace(/[.-]+$/, '');

/** The slugs mentioned in rendered HTML (outside code and links), lowercased, each once. */
export function mentionedSlugs(html: string): string[] {
  const found = new Set<string>();
  mapTextOutsideCode(html, (text) => {
    for (const m of text.matchAll(MENTION)) {
      const slug = trimEnd(m[2]!).toLowerCase();
      if (slug) found.add(slug);
    }
    return text;
  });
  return [...found];
}

/** Turns `@slug` into links for the slugs given (members and groups), outside code and links. */
export function linkMentions(html: string, links: Map<string, { href: string; kind: 'user' | 'group' }>): string {
  if (!links.size) return html;
  return mapTextOutsideCode(html, (text) =>
    text.replace(MENTION, (whole, before: string, raw: string) => {
      const slug = trimEnd(raw);
      const link = links.get(slug.toLowerCase());
      if (!link) return whole;
      const rest = raw.slice(slug.length);
      return `${before}<a href="${link.href}" class="plugin-mentions-${link.kind} plugin-mentions-a">@${slug}</a>${rest}`;
    }),
  );
}

const LINK = /<a href="[^"]*\/(user|groups)\/([^"/]+)" class="plugin-mentions-(?:user|group) plugin-mentions-a">/g;

/** The member and group slugs a rendered post links as mentions (what was checked to exist). */
export function linkedMentions(html: string): { users: string[]; groups: string[] } {
  const users = new Set<string>();
  const groups = new Set<string>();
  for (const m of html.matchAll(LINK)) (m[1] === 'user' ? users : groups).add(decodeURIComponent(m[2]!));
  return { users: [...users], groups: [...groups] };
}
