/** A replacement of `value.slice(start, end)` by `text`, then the selection to leave. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
  selStart: number;
  selEnd: number;
}

/**
 * Applies an edit to a textarea (or input) the way typing would: through
 * `execCommand('insertText')`, so the browser's undo keeps it and React sees an input event;
 * where that is unavailable, `setRangeText` and a dispatched input event.
 */
export function applyEdit(el: HTMLTextAreaElement | HTMLInputElement, edit: TextEdit): void {
  el.focus();
  el.setSelectionRange(edit.start, edit.end);
  let done = false;
  try {
    done = edit.text.length > 0 ? document.execCommand('insertText', false, edit.text) : document.execCommand('delete');
  } catch {
    done = false;
  }
  if (!done || el.value.slice(edit.start, edit.start + edit.text.length) !== edit.text) {
    el.setRangeText(edit.text, edit.start, edit.end, 'end');
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  el.setSelectionRange(edit.selStart, edit.selEnd);
}

const MIRRORED = [
  'boxSizing', 'width', 'height', 'overflowX', 'overflowY', 'borderTopWidth', 'borderRightWidth', 'borderBottomWidth', 'borderLeftWidth',
  'paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft', 'fontStyle', 'fontVariant', 'fontWeight', 'fontStretch', 'fontSize',
  'lineHeight', 'fontFamily', 'textAlign', 'textTransform', 'textIndent', 'letterSpacing', 'wordSpacing', 'tabSize', 'direction',
] as const;

/** The caret's position inside a textarea, in pixels from its top-left corner (a mirror element measures it). */
export function caretOffset(el: HTMLTextAreaElement, position: number): { top: number; left: number; height: number } {
  const mirror = document.createElement('div');
  const style = getComputedStyle(el);
  for (const prop of MIRRORED) mirror.style[prop] = style[prop];
  mirror.style.position = 'absolute';
  mirror.style.visibility = 'hidden';
  mirror.style.whiteSpace = 'pre-wrap';
  mirror.style.overflowWrap = 'break-word';
  mirror.style.top = '0';
  mirror.style.left = '-9999px';
  mirror.textContent = el.value.slice(0, position);
  const marker = document.createElement('span');
  marker.textContent = el.value.slice(position) || '.';
  mirror.appendChild(marker);
  document.body.appendChild(mirror);
  const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4;
  const out = { top: marker.offsetTop - el.scrollTop, left: marker.offsetLeft - el.scrollLeft, height: lineHeight };
  mirror.remove();
  return out;
}
