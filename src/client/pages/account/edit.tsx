import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ProfileEditPage } from '../../../shared/profile';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { uploadFiles } from '../../components/composer/uploads';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { latestSaver } from '../../util/latest-save';
import { AccountNav } from './AccountNav';
import { PictureCropper } from './PictureCropper';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** The characters left under a limit, live (red and counted past it). */
function Counter({ id, value, max }: { id: string; value: string; max: number }) {
  const { t } = useT();
  const left = max - [...value].length;
  return (
    <div id={id} className={`form-text text-end${left < 0 ? ' text-danger fw-semibold' : ''}`} aria-live="polite">
      {left < 0 ? t('user:too-many-characters', -left) : t('user:characters-left', left)}
    </div>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** /user/:userslug/edit: picture (upload with a square crop, or the letter avatar), cover photo, and every profile field. */
export default function AccountEdit({ page }: { page: PageBase }) {
  const data = page as ProfileEditPage;
  const { t } = useT();
  const rt = useRuntime();
  const [form, setForm] = useState(() => ({
    fullname: data.fullname,
    website: data.website,
    location: data.location,
    birthday: data.birthday,
    aboutme: data.aboutme,
    signature: data.signature,
    ...Object.fromEntries(data.customUserFields.map((f) => [`custom:${f.key}`, f.value])),
  }) as Record<string, string>);
  const set = (key: string, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const [saving, setSaving] = useState(false);
  const [picture, setPicture] = useState(data.picture);
  const [cropping, setCropping] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [cover, setCover] = useState({ url: data['cover:url'], position: data['cover:position'] });
  const pictureInput = useRef<HTMLInputElement>(null);
  const coverInput = useRef<HTMLInputElement>(null);
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  // Arrow keys move the cover slider a step per key: one save at a time, the last position last.
  const [saveCoverPosition] = useState(() => latestSaver((position: string) => api(rt.config, 'PUT', `/users/${data.uid}/cover`, { position }), fail));
  const over = [...form.aboutme!].length > data.maximumAboutMeLength || (data.allowSignature && [...form.signature!].length > data.maximumSignatureLength);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const body: Record<string, string> = { fullname: form.fullname!, website: form.website!, location: form.location!, birthday: form.birthday!, aboutme: form.aboutme! };
    if (data.allowSignature) body.signature = form.signature!;
    for (const f of data.customUserFields) body[f.key] = form[`custom:${f.key}`] ?? '';
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}`, body);
      rt.alert({ type: 'success', message: t('user:profile-update-success') });
      rt.navigate(`${rt.config.relative_path}/user/${data.userslug}`);
    } catch (err) {
      fail(err);
    } finally {
      setSaving(false);
    }
  };

  const uploadPicture = async (file: File) => {
    setBusy(true);
    try {
      const [up] = await uploadFiles(rt.config, [file], undefined, `/api/v3/users/${data.uid}/picture`);
      setPicture(up?.url ?? '');
      setCropping(null);
      rt.alert({ type: 'success', message: t('user:picture-changed') });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const letterAvatar = async () => {
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/picture`, { type: 'default' });
      setPicture('');
      rt.alert({ type: 'success', message: t('user:picture.removed') });
    } catch (err) {
      fail(err);
    }
  };
  const uploadCover = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const [up] = await uploadFiles(rt.config, [file], undefined, `/api/v3/users/${data.uid}/cover`);
      setCover({ url: up?.url ?? '', position: '50% 50%' });
      rt.alert({ type: 'success', message: t('user:cover.changed') });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
      if (coverInput.current) coverInput.current.value = '';
    }
  };
  const moveCover = async (y: number) => {
    const position = `50% ${y}%`;
    setCover((c) => ({ ...c, position }));
    await saveCoverPosition(position);
  };
  const removeCover = async () => {
    try {
      await api(rt.config, 'DELETE', `/users/${data.uid}/cover`);
      setCover({ url: '', position: '50% 50%' });
      rt.alert({ type: 'success', message: t('user:cover.removed') });
    } catch (err) {
      fail(err);
    }
  };
  const coverY = Number(/\s(-?[\d.]+)%$/.exec(cover.position)?.[1] ?? 50);

  return (
    <>
      <AccountNav userslug={data.userslug} active="edit" own />
      <PageHeader title={t('user:edit-profile')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="edit" size={28} />} />
      <div className="row g-4">
        <section className="col-12 col-lg-4 d-flex flex-column gap-3" aria-label={t('user:change-picture')}>
          <div className="card card-body text-center">
            <Avatar user={{ ...data, picture }} size="xl" className="mx-auto mb-3" />
            <input ref={pictureInput} type="file" accept={IMAGE_TYPES} className="d-none" aria-label={t('user:picture.upload')} data-testid="picture-input" onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) setCropping(f);
              e.target.value = '';
            }} />
            <div className="d-flex flex-wrap gap-2 justify-content-center">
              <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => pictureInput.current?.click()} disabled={busy}>
                <Icon name="upload" /> {t('user:picture.upload')}
              </button>
              {picture && (
                <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void letterAvatar()} disabled={busy}>
                  {t('user:picture.default')}
                </button>
              )}
            </div>
          </div>
          {cropping && <PictureCropper file={cropping} busy={busy} onCrop={(f) => void uploadPicture(f)} onCancel={() => setCropping(null)} />}
          <div className="card">
            <div
              className="profile-cover-preview rounded-top"
              data-testid="cover-preview"
              style={{ height: '8rem', ...(cover.url ? { backgroundImage: `url("${cover.url}")`, backgroundSize: 'cover', backgroundPosition: cover.position } : { background: `linear-gradient(135deg, ${data['icon:bgColor']}, transparent)` }) }}
              role="img"
              aria-label={t('user:cover')}
            />
            <div className="card-body d-flex flex-column gap-2">
              <input ref={coverInput} type="file" accept={IMAGE_TYPES} className="d-none" aria-label={t('user:cover.upload')} data-testid="cover-input" onChange={(e) => void uploadCover(e.target.files?.[0])} />
              <div className="d-flex flex-wrap gap-2">
                <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => coverInput.current?.click()} disabled={busy}>
                  <Icon name="upload" /> {t('user:cover.upload')}
                </button>
                {cover.url && (
                  <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => void removeCover()}>
                    <Icon name="trash" /> {t('user:cover.remove')}
                  </button>
                )}
              </div>
              {cover.url && (
                <>
                  <label className="form-label small mb-0" htmlFor="cover-position">{t('user:cover.position')}</label>
                  <input id="cover-position" type="range" className="form-range" min={0} max={100} step={1} value={coverY} onChange={(e) => setCover((c) => ({ ...c, position: `50% ${e.target.value}%` }))} onPointerUp={(e) => void moveCover(Number(e.currentTarget.value))} onKeyUp={(e) => void moveCover(Number(e.currentTarget.value))} />
                </>
              )}
            </div>
          </div>
        </section>
        <form className="col-12 col-lg-8" onSubmit={(e) => void save(e)} data-testid="profile-form" noValidate>
          <div className="card card-body">
            <Field id="fullname" label={t('user:fullname')}>
              <input id="fullname" className="form-control" value={form.fullname} maxLength={255} onChange={(e) => set('fullname', e.target.value)} autoComplete="name" />
            </Field>
            <div className="row g-3">
              <div className="col-12 col-md-6">
                <Field id="website" label={t('user:website')}>
                  <input id="website" type="url" className="form-control" value={form.website} placeholder="https://" onChange={(e) => set('website', e.target.value)} autoComplete="url" />
                </Field>
              </div>
              <div className="col-12 col-md-6">
                <Field id="location" label={t('user:location')}>
                  <input id="location" className="form-control" value={form.location} maxLength={data.maximumProfileFieldLength} onChange={(e) => set('location', e.target.value)} />
                </Field>
              </div>
            </div>
            <Field id="birthday" label={t('user:birthday')}>
              <input id="birthday" type="date" className="form-control" value={form.birthday} max={new Date().toISOString().slice(0, 10)} onChange={(e) => set('birthday', e.target.value)} />
            </Field>
            <Field id="aboutme" label={t('user:aboutme')}>
              <textarea id="aboutme" className="form-control" rows={5} value={form.aboutme} aria-describedby="aboutme-count" onChange={(e) => set('aboutme', e.target.value)} />
              <Counter id="aboutme-count" value={form.aboutme!} max={data.maximumAboutMeLength} />
            </Field>
            {data.allowSignature && (
              <Field id="signature" label={t('user:signature')}>
                <textarea id="signature" className="form-control" rows={3} value={form.signature} aria-describedby="signature-count" onChange={(e) => set('signature', e.target.value)} />
                <Counter id="signature-count" value={form.signature!} max={data.maximumSignatureLength} />
              </Field>
            )}
            {data.customUserFields.length > 0 && (
              <fieldset className="mb-3">
                <legend className="h6">{t('user:custom-fields')}</legend>
                {data.customUserFields.map((f) => (
                  <Field key={f.key} id={`custom-${f.key}`} label={f.name}>
                    {f.type === 'select' ? (
                      <select id={`custom-${f.key}`} className="form-select" value={form[`custom:${f.key}`]} onChange={(e) => set(`custom:${f.key}`, e.target.value)}>
                        <option value="">{t('user:select-option')}</option>
                        {f.options.map((o) => <option key={o} value={o}>{o}</option>)}
                      </select>
                    ) : (
                      <input id={`custom-${f.key}`} className="form-control" type={f.type === 'url' ? 'url' : f.type === 'number' ? 'number' : 'text'} value={form[`custom:${f.key}`]} onChange={(e) => set(`custom:${f.key}`, e.target.value)} />
                    )}
                  </Field>
                ))}
              </fieldset>
            )}
            <div className="d-flex justify-content-end">
              <button type="submit" className="btn btn-primary" disabled={saving || over}>{t('user:settings.save')}</button>
            </div>
          </div>
        </form>
      </div>
    </>
  );
}
