import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useStore } from '../../state/store';
import { useTextareaAutocomplete } from '../autocomplete';
import { Icon } from '../Icon';
import { closeComposer, storeDraft, submitComposer } from './actions';
import { CategorySelect, useCategoryTagLimits } from './CategorySelect';
import { shortcutOf } from './formatting';
import { Preview } from './Preview';
import { QueueAndSchedule } from './Scheduler';
import { socketCall } from './socket-call';
import { emojiStrategy, mentionStrategy } from './strategies';
import { TagInput } from './TagInput';
import { applyFormat, Toolbar } from './Toolbar';
import { useComposerUploads } from './uploads'; // Uploads (brief U)
import type { ComposerState } from './types';

const DRAFT_SAVE_MS = 1000;

/** The composer's fields and buttons; used docked at the bottom and on the compose page. */
export function ComposerForm({ variant }: { variant: 'docked' | 'page' }) {
  const rt = useRuntime();
  const { t } = useT();
  const state = useStore(rt.composer);
  const titleId = useId();
  const bodyId = useId();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  // `@` mentions (topic posters first) and `:` emoji in the body.
  const strategies = useMemo(() => [mentionStrategy(rt, state?.tid ?? 0), emojiStrategy(rt)], [rt, state?.tid]);
  const autocomplete = useTextareaAutocomplete(bodyRef, strategies);
  // A category may allow fewer tags than the forum: the tag input fills at its maximum.
  const categoryTags = useCategoryTagLimits(state?.cid ?? 0);
  // Uploads (brief U, uploads.tsx): paste and drop on the textarea, the upload button and its progress bar.
  const uploads = useComposerUploads(bodyRef);

  // Keep a draft of the text and flag unsaved changes for the leave guard.
  useEffect(() => {
    if (!state) return;
    rt.setUnsaved('composer', state.body.trim().length > 0 && !state.busy);
    const timer = setTimeout(() => storeDraft(rt, state), DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [state?.body, state?.title, state?.tags, state?.save_id]);

  // The caret goes to the end of the text: after a quote, what the member types follows it (NodeBB).
  useEffect(() => {
    if (!state || state.minimized) return;
    if (state.titleEditable && !state.title) return document.getElementById(titleId)?.focus();
    const body = bodyRef.current;
    if (!body) return;
    body.focus();
    body.setSelectionRange(body.value.length, body.value.length);
    body.scrollTop = body.scrollHeight;
  }, [state?.save_id, state?.minimized, state?.quotedAt]);

  if (!state) return null;
  const update = (patch: Partial<ComposerState>) => rt.composer.set((s) => (s ? { ...s, ...patch } : s));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void submitComposer(rt);
  };
  const discard = () => {
    if (state.body.trim() && !window.confirm(t('modules:composer.discard'))) return;
    closeComposer(rt, true);
  };
  const heading =
    state.action === 'topics.post'
      ? t('modules:composer.new-topic')
      : state.action === 'posts.reply'
        ? t('modules:composer.replying-to', state.title)
        : t('modules:composer.editing');

  return (
    <form className={`composer-form composer-${variant} d-flex flex-column gap-2`} onSubmit={submit} aria-labelledby={`${titleId}-heading`}>
      <div className="d-flex align-items-center gap-2">
        <h2 id={`${titleId}-heading`} className="h6 mb-0 flex-grow-1 text-truncate">{heading}</h2>
        {variant === 'docked' && (
          <button type="button" className="btn btn-sm btn-link text-reset" onClick={() => update({ minimized: !state.minimized })} aria-label={state.minimized ? t('modules:composer.restore') : t('modules:composer.minimize')}>
            <Icon name={state.minimized ? 'chevron-up' : 'chevron-down'} />
          </button>
        )}
      </div>
      {!state.minimized && (
        <>
          {(state.action === 'topics.post' || state.titleEditable) && (
            <div className="d-flex flex-column flex-md-row gap-2">
              {state.action === 'topics.post' && (
                <div className="composer-category">
                  <CategorySelect value={state.cid} onChange={(cid) => update({ cid })} />
                </div>
              )}
              <div className="flex-grow-1">
                <label htmlFor={titleId} className="visually-hidden">{t('modules:composer.title')}</label>
                <input id={titleId} className="form-control" dir="auto" value={state.title} maxLength={rt.config.maximumTitleLength} placeholder={t('modules:composer.title-placeholder')} onChange={(e) => update({ title: e.target.value })} />
              </div>
            </div>
          )}
          {state.action === 'topics.post' && (
            <TagInput
              tags={state.tags}
              onChange={(tags) => update({ tags })}
              rules={{ maxTags: categoryTags?.maxTags ?? rt.config.maximumTagsPerTopic, maxTagLength: rt.config.maximumTagLength }}
              suggest={(query) => socketCall<string[]>(rt, 'topics.autocompleteTags', { query, cid: state.cid })}
            />
          )}
          <ul className="nav nav-tabs d-lg-none" role="tablist">
            {(['write', 'preview'] as const).map((name) => (
              <li className="nav-item" role="presentation" key={name}>
                <button type="button" role="tab" aria-selected={tab === name} className={`nav-link${tab === name ? ' active' : ''}`} onClick={() => setTab(name)}>
                  {t(`modules:composer.${name}`)}
                </button>
              </li>
            ))}
          </ul>
          <div className="composer-panes d-flex gap-3 flex-grow-1">
            <div className={`flex-grow-1 w-50 composer-write flex-column${tab === 'write' ? ' d-flex' : ' d-none d-lg-flex'}`}>
              <Toolbar target={bodyRef} />
              <div className="position-relative flex-grow-1 d-flex flex-column">
                <label htmlFor={bodyId} className="visually-hidden">{t('modules:composer.body')}</label>
                <textarea
                  id={bodyId}
                  ref={bodyRef}
                  className="form-control flex-grow-1 composer-textarea"
                  dir="auto"
                  value={state.body}
                  placeholder={t('modules:composer.body-placeholder')}
                  aria-autocomplete="list"
                  aria-controls={autocomplete.open ? autocomplete.listId : undefined}
                  onChange={(e) => {
                    update({ body: e.target.value });
                    autocomplete.check();
                  }}
                  onKeyDown={(e) => {
                    if (autocomplete.onKeyDown(e)) return;
                    const format = shortcutOf(e);
                    if (format) {
                      e.preventDefault();
                      applyFormat(e.currentTarget, format, t('modules:composer.format-placeholder'));
                    } else if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') void submitComposer(rt);
                  }}
                  onKeyUp={(e) => ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key) && autocomplete.check()}
                  onClick={() => autocomplete.check()}
                  onBlur={() => autocomplete.close()}
                  {...uploads.textarea /* Uploads (brief U) */}
                />
                {autocomplete.menu}
              </div>
              {uploads.ui /* Uploads (brief U) */}
            </div>
            <section className={`flex-grow-1 w-50 composer-preview border rounded p-2 overflow-auto${tab === 'preview' ? '' : ' d-none d-lg-block'}`} aria-label={t('modules:composer.preview')}>
              <Preview content={state.body} />
            </section>
          </div>
          {/* Post queue notice and schedule picker (brief Q: Scheduler.tsx). */}
          <QueueAndSchedule state={state} />
          <div className="d-flex gap-2 justify-content-end">
            <button type="button" className="btn btn-outline-secondary" onClick={discard} disabled={state.busy}>
              <Icon name="trash" size={16} className="me-1" />
              {t('modules:composer.discard-button')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={state.busy}>
              <Icon name="send" size={16} className="me-1" />
              {state.busy ? t('modules:composer.submitting') : t(state.action === 'posts.edit' ? 'modules:composer.save' : 'modules:composer.submit')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
