import { useId, useState } from 'react';
import type { ViewerPrivileges } from '../../../shared/types';
import { usePage, useT } from '../../app/hooks';
import { useRuntime, type Runtime } from '../../app/runtime';
import { translate } from '../../i18n';
import { createStore, useStore } from '../../state/store';
import { Icon } from '../Icon';
import type { ComposerState } from './types';

/** The publication time chosen for the composer with this save_id (0: publish now). */
const schedule = createStore<{ saveId: string; at: number } | null>(null);

/** The `timestamp` of NodeBB's POST /api/v3/topics when the member scheduled this topic. */
export function schedulePayload(saveId: string): { timestamp?: number } {
  const chosen = schedule.get();
  return chosen && chosen.saveId === saveId && chosen.at > 0 ? { timestamp: chosen.at } : {};
}

/**
 * After a submit: when the server held the post in the queue (NodeBB's `queued: true`), closes
 * the composer through `close` and tells the author their post awaits approval. True when it did.
 */
export function announceQueued(rt: Runtime, answer: { queued?: boolean; message?: string } | null | undefined, close: () => void): boolean {
  if (!answer?.queued) return false;
  close();
  schedule.set(null);
  rt.alert({ alert_id: 'post-queued', type: 'info', message: translate(rt.i18n, 'topic:post-queued'), timeout: 10_000 });
  return true;
}

/** A local date-time input value ("2026-11-24T09:30") for a time. */
function localValue(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** True when the viewer may schedule a topic in this category: admins, or the page's privileges for that category. */
function useCanSchedule(cid: number): boolean {
  const rt = useRuntime();
  const page = usePage<{ cid?: number; privileges?: Partial<ViewerPrivileges> } & ReturnType<typeof usePage>>();
  if (rt.config.isAdmin) return true;
  return !!page.privileges?.['topics:schedule'] && page.cid === cid;
}

/**
 * The composer's post-queue notice (the member's new posts wait for approval) and, for a new
 * topic, the schedule picker of members who may schedule (NodeBB's topics:schedule).
 */
export function QueueAndSchedule({ state }: { state: ComposerState }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const chosen = useStore(schedule);
  const canSchedule = useCanSchedule(state.cid);
  const [open, setOpen] = useState(false);
  const at = chosen?.saveId === state.save_id ? chosen.at : 0;
  const showPicker = state.action === 'topics.post' && canSchedule;
  const showNotice = rt.config.postQueue && state.action !== 'posts.edit';
  if (!showPicker && !showNotice) return null;
  const set = (value: string) => {
    const ms = value ? new Date(value).getTime() : 0;
    schedule.set({ saveId: state.save_id, at: Number.isFinite(ms) ? ms : 0 });
  };
  return (
    <div className="d-flex flex-column gap-2 composer-extras">
      {showNotice && (
        <div className="alert alert-info small py-2 mb-0" role="note" data-testid="composer-queue-notice">
          {t('topic:queue.notice')}
        </div>
      )}
      {showPicker && (
        <div className="d-flex flex-wrap align-items-center gap-2 small composer-scheduler" data-testid="composer-scheduler">
          {!open && !at ? (
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setOpen(true)}>
              <Icon name="clock" size={16} className="me-1" />
              {t('topic:schedule.toggle')}
            </button>
          ) : (
            <>
              <label htmlFor={id} className="mb-0">{t('topic:schedule.label')}</label>
              <input id={id} type="datetime-local" className="form-control form-control-sm w-auto" min={localValue(Date.now())} value={at ? localValue(at) : ''} onChange={(e) => set(e.target.value)} aria-describedby={`${id}-hint`} />
              <button
                type="button"
                className="btn btn-sm btn-link"
                onClick={() => {
                  schedule.set(null);
                  setOpen(false);
                }}
              >
                {t('topic:schedule.clear')}
              </button>
              <span id={`${id}-hint`} className="text-body-secondary">{t('topic:schedule.hint')}</span>
            </>
          )}
        </div>
      )}
    </div>
  );
}
