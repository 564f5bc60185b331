import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { Plugin } from '../index.js';

/**
 * Allowed output. markdown-it runs with raw HTML off, and the sanitiser then removes anything
 * outside this list, so no script, event handler or dangerous URL survives either step.
 */
function sanitizeOptions(isInternal: (href: string) => boolean): sanitizeHtml.IOptions {
  return {
    allowedTags: [
      'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
      'a', 'img', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub', 'span',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'title', 'width', 'height', 'class'],
      code: ['class'],
      th: ['style'],
      td: ['style'],
      ol: ['start'],
      span: ['class', 'tabindex'],
    },
    allowedClasses: { code: [/^language-[\w+#-]+$/], img: ['img-fluid'], span: ['spoiler'] },
    allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        const attrs: Record<string, string> = { ...attribs };
        if (!isInternal(href)) attrs.rel = 'nofollow ugc noopener';
        else delete attrs.rel;
        delete attrs.target;
        return { tagName, attribs: attrs };
      },
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, class: 'img-fluid' } }),
    },
  };
}

/** Creates the renderer: markdown → sanitised HTML. */
export function createRenderer(baseUrl: string) {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  const origin = new URL(baseUrl).origin;
  const isInternal = (href: string) => (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#') || href.startsWith(`${origin}/`) || href === origin;
  const options = sanitizeOptions(isInternal);
  return (markdown: string): string => sanitizeHtml(spoilers(md.render(markdown)), options);
}

/** The posts' sanitiser alone: HTML an admin writes (widgets) → the same allowed output as posts. */
export function createSanitizer(baseUrl: string) {
  const origin = new URL(baseUrl).origin;
  const isInternal = (href: string) => (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#') || href.startsWith(`${origin}/`) || href === origin;
  const options = sanitizeOptions(isInternal);
  return (html: string): string => sanitizeHtml(html, options);
}

/**
 * `||hidden text||` (within one paragraph, outside code) → a spoiler the reader reveals by
 * focusing or hovering it (styled by the client; no script). The sanitiser runs afterwards.
 */
export function spoilers(html: string): string {
  if (!html.includes('||')) return html;
  let depth = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        const m = /^<(\/?)(code|pre)\b/i.exec(part);
        if (m) depth = Math.max(0, depth + (m[1] ? -1 : 1));
        return part;
      }
      return depth ? part : part.replace(/\|\|([^|]+?)\|\|/g, '<span class="spoiler" tabindex="0">$1</span>');
    })
    .join('');
}

/** Built-in markdown renderer on filter:parse.post; another plugin may replace it. */
const markdown: Plugin = {
  id: 'markdown',
  init({ hooks, config }) {
    const render = createRenderer(config.url);
    hooks.filter('filter:parse.post', 'markdown', (data) => ({ ...data, html: render(data.content) }));
  },
};

export default markdown;
