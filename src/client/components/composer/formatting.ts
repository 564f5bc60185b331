import type { TextEdit } from '../autocomplete/text-edit';

/** The toolbar's formats (spec §2 "formatting"). */
export type FormatId = 'bold' | 'italic' | 'strike' | 'heading' | 'link' | 'image' | 'code' | 'quote' | 'list' | 'olist' | 'spoiler';

const WRAP: Partial<Record<FormatId, string>> = { bold: '**', italic: '*', strike: '~~', spoiler: '||' };
const PREFIX: Partial<Record<FormatId, string>> = { heading: '## ', quote: '> ', list: '- ' };

/** Keyboard shortcuts with Ctrl (or Cmd): key → format. */
export const SHORTCUTS: Record<string, FormatId> = { b: 'bold', i: 'italic', k: 'link', e: 'code', 'shift+x': 'strike', 'shift+.': 'quote', 'shift+>': 'quote' };

/** The format a key press asks for, if any. */
export function shortcutOf(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): FormatId | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  return SHORTCUTS[`${e.shiftKey ? 'shift+' : ''}${e.key.toLowerCase()}`] ?? null;
}

/**
 * The edit a format makes on `value` with the selection [start, end): wraps it (toggling
 * off when already wrapped), prefixes its lines, or inserts a link or image around it. With
 * nothing selected, a placeholder is inserted and selected so typing replaces it.
 */
export function formatEdit(value: string, start: number, end: number, id: FormatId, placeholder: string): TextEdit {
  const selected = value.slice(start, end);
  const wrap = WRAP[id] ?? (id === 'code' && !selected.includes('\n') ? '`' : undefined);
  if (wrap) {
    const w = wrap.length;
    // Already wrapped just outside the selection: remove the markers.
    if (value.slice(start - w, start) === wrap && value.slice(end, end + w) === wrap && !(wrap === '*' && value.slice(start - 2, start) === '**')) {
      return { start: start - w, end: end + w, text: selected, selStart: start - w, selEnd: end - w };
    }
    const inner = selected || placeholder;
    return { start, end, text: `${wrap}${inner}${wrap}`, selStart: start + w, selEnd: start + w + inner.length };
  }
  if (id === 'code') {
    const text = `\`\`\`\n${selected}\n\`\`\``;
    return { start, end, text, selStart: start + 4, selEnd: start + 4 + selected.length };
  }
  if (id === 'link' || id === 'image') {
    const label = selected || placeholder;
    const bang = id === 'image' ? '!' : '';
    const text = `${bang}[${label}](https://)`;
    const urlAt = start + bang.length + label.length + 3;
    return selected ? { start, end, text, selStart: urlAt, selEnd: urlAt + 8 } : { start, end, text, selStart: start + bang.length + 1, selEnd: start + bang.length + 1 + label.length };
  }
  // Line formats: every line the selection touches gets the prefix (or loses it when all have it).
  const lineStart = value.lastIndexOf('\n', start - 1) + 1;
  const nl = value.indexOf('\n', end > start && value[end - 1] === '\n' ? end - 1 : end);
  const lineEnd = nl === -1 ? value.length : nl;
  const lines = value.slice(lineStart, lineEnd).split('\n');
  const prefixOf = (i: number) => (id === 'olist' ? `${i + 1}. ` : PREFIX[id]!);
  const has = (line: string, i: number) => (id === 'olist' ? /^\d+\. /.test(line) : line.startsWith(prefixOf(i)));
  const all = lines.every(has);
  const out = lines.map((line, i) => (all ? line.replace(id === 'olist' ? /^\d+\. / : prefixOf(i), '') : `${prefixOf(i)}${line}`)).join('\n');
  if (!selected && !lines[0]) {
    const text = `${prefixOf(0)}${placeholder}`;
    return { start: lineStart, end: lineEnd, text, selStart: lineStart + prefixOf(0).length, selEnd: lineStart + text.length };
  }
  return { start: lineStart, end: lineEnd, text: out, selStart: lineStart, selEnd: lineStart + out.length };
}
