// What the composer's Quote writes (modules:composer.user-said-in): a header line holding a
// markdown link to the quoted post, `[title](<relative path>/post/<pid>)`, then the quoted
// text, every line prefixed '> '. The header's words are translated, the link is not.
const HEADER_LINK = /\]\([^)\s]*\/post\/(\d+)\)/g;
const FENCE = /^\s*(```|~~~)/;

/** The pids a post's markdown quotes (a header with a post link followed by a blockquote), each once, outside code fences. */
export function quotedPids(markdown: string): number[] {
  const lines = markdown.split(/\r?\n/);
  const found = new Set<number>();
  let fenced = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || !lines[i + 1]?.trimStart().startsWith('>')) continue;
    for (const m of line.matchAll(HEADER_LINK)) {
      const pid = Number(m[1]);
      if (Number.isSafeInteger(pid) && pid > 0) found.add(pid);
    }
  }
  return [...found];
}
