import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useTextareaAutocomplete } from '../../components/autocomplete';
import { emojiStrategy, mentionStrategy } from '../../components/composer/strategies';
import { filesOf, markdownFor, uploadFiles } from '../../components/composer/uploads';
import { Icon } from '../../components/Icon';
import { errorText } from '../../i18n';
import { setTyping } from './actions';
import { teaserText } from './messages';
import type { ChatMessage } from './types';

/** How often "is typing" is sent again while the member keeps typing, and when it ends. */
export const TYPING_REPEAT_MS = 3000;
export const TYPING_IDLE_MS = 5000;

/**
 * The room's composer: Enter sends, Shift+Enter starts a new line, the box is disabled while
 * sending and keeps the text when sending fails (the error shows under it, by its key).
 * Up arrow in an empty box edits the member's last message.
 */
export function ChatComposer({ roomId, maxLength, replyTo, onCancelReply, onSend, onEditLast, disabled, autoFocus }: {
  roomId: number;
  /** Focus the box once shown (the floating window). */
  autoFocus?: boolean;
  maxLength?: number;
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
  onSend: (text: string, toMid?: number) => Promise<void>;
  onEditLast: () => boolean;
  disabled?: boolean;
}) {
  const { t } = useT();
  const rt = useRuntime();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const lastTyping = useRef(0);
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The composer's @mention and :emoji: autocomplete (no topic: members found by name).
  const strategies = useMemo(() => [mentionStrategy(rt, 0), emojiStrategy(rt)], [rt]);
  const autocomplete = useTextareaAutocomplete(box, strategies);

  // Pasted or dropped files are uploaded and added to the text as markdown (the composer's uploads).
  const [uploading, setUploading] = useState<number | null>(null);
  const upload = async (files: File[]) => {
    setUploading(0);
    setError(null);
    try {
      const done = await uploadFiles(rt.config, files, setUploading);
      const md = done.map(markdownFor).join('\n');
      setText((v) => `${v}${v && !v.endsWith('\n') ? '\n' : ''}${md}`);
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setUploading(null);
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = filesOf(e.clipboardData);
    if (!files.length) return;
    e.preventDefault();
    void upload(files);
  };
  const onDrop = (e: DragEvent<HTMLTextAreaElement>) => {
    const files = filesOf(e.dataTransfer);
    if (!files.length) return;
    e.preventDefault();
    void upload(files);
  };

  const stopTyping = () => {
    clearTimeout(idle.current);
    if (lastTyping.current) {
      lastTyping.current = 0;
      setTyping(rt.config, roomId, false).catch(() => undefined);
    }
  };
  useEffect(() => () => stopTyping(), [roomId]);
  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  useEffect(() => {
    if (autoFocus) box.current?.focus();
  }, [autoFocus]);

  const typed = (value: string) => {
    setText(value);
    setError(null);
    if (!value) return stopTyping();
    const now = Date.now();
    // Throttled: one "typing" call every few seconds, "stopped" after a pause.
    if (now - lastTyping.current > TYPING_REPEAT_MS) {
      lastTyping.current = now;
      setTyping(rt.config, roomId, true).catch(() => undefined);
    }
    clearTimeout(idle.current);
    idle.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  };

  const send = async () => {
    const message = text.trim();
    if (!message || sending) return;
    if (maxLength && message.length > maxLength) {
      setError(t('modules:chat.message-too-long', maxLength));
      return;
    }
    setSending(true);
    setError(null);
    try {
      await onSend(message, replyTo?.mid);
      setText('');
      stopTyping();
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setSending(false);
      // Focus again once the box is enabled (after this render).
      setTimeout(() => box.current?.focus(), 0);
    }
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (autocomplete.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === 'ArrowUp' && !text && onEditLast()) {
      e.preventDefault();
    } else if (e.key === 'Escape' && replyTo) {
      // Handled: a floating window does not close on this Escape.
      e.preventDefault();
      onCancelReply();
    }
  };
  const replyName = replyTo?.fromUser?.displayname || replyTo?.fromUser?.username || '';
  return (
    <div className="chat-composer border-top p-2">
      {replyTo && (
        <div className="chat-replying d-flex align-items-center gap-2 small mb-1 px-1" data-testid="chat-replying">
          <Icon name="reply" />
          <span className="text-truncate flex-grow-1">
            <span className="fw-semibold">{t('modules:chat.replying-to', replyName)}</span> <span className="text-body-secondary">{teaserText(replyTo.content, 80)}</span>
          </span>
          <button type="button" className="btn btn-sm btn-link p-0" onClick={onCancelReply} aria-label={t('modules:chat.cancel-reply')}><Icon name="x" /></button>
        </div>
      )}
      <div className="d-flex gap-2 align-items-end">
        <div className="position-relative flex-grow-1">
        <textarea
          ref={box}
          className="form-control chat-input"
          dir="auto"
          rows={Math.min(5, text.split('\n').length)}
          value={text}
          onChange={(e) => {
            typed(e.target.value);
            autocomplete.check();
          }}
          onKeyDown={onKey}
          onClick={() => autocomplete.check()}
          onPaste={onPaste}
          onDrop={onDrop}
          onDragOver={(e) => [...e.dataTransfer.types].includes('Files') && e.preventDefault()}
          onBlur={() => {
            autocomplete.close();
            stopTyping();
          }}
          aria-autocomplete="list"
          aria-controls={autocomplete.open ? autocomplete.listId : undefined}
          placeholder={t('modules:chat.placeholder')}
          aria-label={t('modules:chat.placeholder')}
          disabled={sending || disabled}
          maxLength={maxLength ? maxLength + 1000 : undefined}
          data-testid="chat-input"
        />
        {autocomplete.menu}
        </div>
        <button type="button" className="btn btn-primary chat-send" onClick={() => void send()} disabled={sending || disabled || uploading !== null || !text.trim()} aria-label={t('modules:chat.send')} title={t('modules:chat.send')} data-testid="chat-send">
          <Icon name="send" />
        </button>
      </div>
      {uploading !== null && (
        <div className="progress mt-1 chat-upload-progress" role="progressbar" aria-label={t('modules:composer.upload-progress')} aria-valuenow={Math.round(uploading * 100)} aria-valuemin={0} aria-valuemax={100}>
          <div className="progress-bar" style={{ width: `${Math.round(uploading * 100)}%` }} />
        </div>
      )}
      {error && <div className="text-danger small mt-1 px-1" role="alert" data-testid="chat-error">{error}</div>}
    </div>
  );
}
