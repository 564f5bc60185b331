import type { HLJSApi } from 'highlight.js';

let loading: Promise<HLJSApi> | null = null;

/** Loads highlight.js core with a few common languages, once, on first use. */
function loadHljs(): Promise<HLJSApi> {
  loading ??= (async () => {
    const [core, js, ts, json, bash, py, css, xml, sql, diff, yaml, md] = await Promise.all([
      import('highlight.js/lib/core'),
      import('highlight.js/lib/languages/javascript'),
      import('highlight.js/lib/languages/typescript'),
      import('highlight.js/lib/languages/json'),
      import('highlight.js/lib/languages/bash'),
      import('highlight.js/lib/languages/python'),
      import('highlight.js/lib/languages/css'),
      import('highlight.js/lib/languages/xml'),
      import('highlight.js/lib/languages/sql'),
      import('highlight.js/lib/languages/diff'),
      import('highlight.js/lib/languages/yaml'),
      import('highlight.js/lib/languages/markdown'),
    ]);
    const hljs = core.default;
    const langs = { javascript: js, typescript: ts, json, bash, python: py, css, xml, sql, diff, yaml, markdown: md };
    for (const [name, mod] of Object.entries(langs)) hljs.registerLanguage(name, mod.default);
    hljs.configure({ ignoreUnescapedHTML: true });
    return hljs;
  })();
  return loading;
}

/** Highlights every code block inside an element (no-op when there are none). */
export async function highlightWithin(root: HTMLElement | null): Promise<void> {
  const blocks = root ? Array.from(root.querySelectorAll<HTMLElement>('pre code')) : [];
  const todo = blocks.filter((b) => !b.dataset.highlighted);
  if (!todo.length) return;
  const hljs = await loadHljs();
  for (const block of todo) {
    if (!block.isConnected) continue;
    const hasKnownLang = Array.from(block.classList).some((c) => c.startsWith('language-') && hljs.getLanguage(c.slice(9)));
    if (!hasKnownLang) {
      // Unknown or no language: auto-detect among the registered ones.
      block.classList.forEach((c) => c.startsWith('language-') && block.classList.remove(c));
    }
    hljs.highlightElement(block);
  }
}
