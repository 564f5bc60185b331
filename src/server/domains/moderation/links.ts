// An http(s) address or a bare www. one, as markdown-it's linkify would turn into a link.
const LINK = /(?:\bhttps?:\/\/|\bwww\.)[^\s<>()[\]]+/gi;

/** How many links a post's markdown holds (written links and bare addresses alike). */
export function countLinks(content: string): number {
  return content.match(LINK)?.length ?? 0;
}
