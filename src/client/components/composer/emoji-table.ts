import type { EmojiEntry } from '../../../shared/emoji';

let table: Promise<EmojiEntry[]> | null = null;

/** The emoji index, fetched once when first needed (never part of the main bundle). */
export function loadEmojiTable(relativePath: string): Promise<EmojiEntry[]> {
  table ??= fetch(`${relativePath}/plugins/emoji/table.json`, { credentials: 'same-origin' })
    .then((res) => {
      if (!res.ok) throw new Error(`emoji table: ${res.status}`);
      return res.json() as Promise<EmojiEntry[]>;
    })
    .catch((err: unknown) => {
      table = null;
      throw err;
    });
  return table;
}
