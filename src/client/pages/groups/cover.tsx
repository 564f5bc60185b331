import { useRef, useState } from 'react';
import type { GroupFull } from '../../../shared/schemas/group';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { uploadFiles } from '../../components/composer/uploads';
import { Icon } from '../../components/Icon';
import { errorText } from '../../i18n';
import { latestSaver } from '../../util/latest-save';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * A group's cover photo. Everyone sees it when set; owners and admins also get "Change cover"
 * (upload), "Remove cover" and a slider for its vertical position, saved when released (as the
 * member's own cover editor).
 */
export function GroupCover({ group: g }: { group: GroupFull }) {
  const { t } = useT();
  const rt = useRuntime();
  const [cover, setCover] = useState({ url: g['cover:url'], position: g['cover:position'] || '50% 50%' });
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const base = `/groups/${encodeURIComponent(g.slug)}/cover`;
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  const manage = g.isOwner;
  // Arrow keys move the slider a step per key: one save at a time, the last position last.
  const [savePosition] = useState(() => latestSaver((position: string) => api(rt.config, 'PUT', base, { position }), fail));
  if (!cover.url && !manage) return null;

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const [up] = await uploadFiles(rt.config, [file], undefined, `/api/v3${base}`);
      setCover({ url: up?.url ?? '', position: '50% 50%' });
      rt.alert({ type: 'success', message: t('groups:cover.changed') });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const move = async (y: number) => {
    const position = `50% ${y}%`;
    setCover((c) => ({ ...c, position }));
    await savePosition(position);
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api(rt.config, 'DELETE', base);
      setCover({ url: '', position: '50% 50%' });
      rt.alert({ type: 'success', message: t('groups:cover.removed') });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const y = Number(/\s(-?[\d.]+)%$/.exec(cover.position)?.[1] ?? 50);

  return (
    <div className="mb-3">
      <div
        className="group-cover rounded bg-body-tertiary"
        role="img"
        aria-label={g.name}
        data-testid="group-cover"
        style={{ height: 160, ...(cover.url ? { backgroundImage: `url("${cover.url}")`, backgroundSize: 'cover', backgroundPosition: cover.position } : { background: `linear-gradient(135deg, ${g.labelColor}, transparent)` }) }}
      />
      {manage && (
        <div className="d-flex flex-wrap align-items-center gap-2 mt-2 p-2 bg-body border rounded" data-testid="group-cover-tools">
          <input ref={input} type="file" accept={IMAGE_TYPES} className="d-none" aria-label={t('groups:cover.change')} data-testid="group-cover-input" onChange={(e) => void upload(e.target.files?.[0])} />
          <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => input.current?.click()} disabled={busy}>
            <Icon name="upload" /> {t('groups:cover.change')}
          </button>
          {cover.url && (
            <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => void remove()} disabled={busy} data-testid="group-cover-remove">
              <Icon name="trash" /> {t('groups:cover.remove')}
            </button>
          )}
          {cover.url && (
            <div className="d-flex align-items-center gap-2 flex-grow-1" style={{ minWidth: '12rem' }}>
              <label className="form-label small mb-0 text-nowrap" htmlFor="group-cover-position">{t('groups:cover.position')}</label>
              <input id="group-cover-position" type="range" className="form-range" min={0} max={100} step={1} value={y} onChange={(e) => setCover((c) => ({ ...c, position: `50% ${e.target.value}%` }))} onPointerUp={(e) => void move(Number(e.currentTarget.value))} onKeyUp={(e) => void move(Number(e.currentTarget.value))} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
