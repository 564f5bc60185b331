import { useRef, useState, type ClipboardEvent, type DragEvent, type RefObject } from 'react';
import type { ClientConfig } from '../../../shared/types';
import { ApiError, apiError } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime, type Runtime } from '../../app/runtime';
import { errorText, translate } from '../../i18n';
import { applyEdit } from '../autocomplete/text-edit';
import { Icon } from '../Icon';

/** One stored file, as POST /api/post/upload answers it. */
export interface UploadedFile {
  url: string;
  name: string;
}

const IMAGE_URL = /\.(png|jpe?g|gif|webp|svg)$/i;

/**
 * Uploads files to the forum (NodeBB's `POST /api/post/upload`, or another upload route such
 * as a topic's thumbs) with XMLHttpRequest, so that `onProgress` gets the fraction sent (0…1).
 * Rejects with an ApiError carrying the server's translation key. Reusable by chat.
 */
export function uploadFiles(config: ClientConfig, files: File[], onProgress?: (fraction: number) => void, path = '/api/post/upload'): Promise<UploadedFile[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files[]', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${config.relative_path}${path}`);
    xhr.setRequestHeader('x-csrf-token', config.csrf_token);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      if (xhr.status !== 200) return reject(apiError(xhr.status, json));
      resolve(((json as { response?: { images?: UploadedFile[] } } | null)?.response?.images ?? []) as UploadedFile[]);
    };
    xhr.onerror = () => reject(new ApiError('[[error:no-connection]]', 0));
    xhr.send(form);
  });
}

/** The markdown for an uploaded file: an image (`![name](url)`) or a link (`[name](url)`). */
export function markdownFor(file: UploadedFile): string {
  const name = file.name.replace(/[[\]\\]/g, '');
  return `${IMAGE_URL.test(file.url) ? '!' : ''}[${name}](${file.url})`;
}

/** The files of a paste or a drop (images pasted from the clipboard get a name). */
export function filesOf(list: DataTransfer | null): File[] {
  if (!list) return [];
  const files = [...list.files];
  return files.map((f, i) => (f.name && f.name !== 'image.png' ? f : new File([f], `pasted-${Date.now()}${i ? `-${i}` : ''}.${f.type.split('/')[1] ?? 'png'}`, { type: f.type })));
}

let seq = 0;

/**
 * Uploads into the composer's text: a placeholder goes in at the caret at once (the member
 * keeps typing), replaced by the markdown when the upload answers, or removed on an error.
 * The rest of the text is never touched.
 */
export async function uploadIntoComposer(rt: Runtime, el: HTMLTextAreaElement | null, files: File[], onProgress: (f: number | null) => void): Promise<void> {
  if (!files.length) return;
  const marker = `![${translate(rt.i18n, 'modules:composer.uploading', [files.map((f) => f.name.replace(/[[\]()]/g, '')).join(', ')])} #${(seq += 1)}]()`;
  if (el) {
    const { selectionStart: start, selectionEnd: end } = el;
    applyEdit(el, { start, end, text: marker, selStart: start + marker.length, selEnd: start + marker.length });
  }
  const replace = (text: string) =>
    rt.composer.set((s) => {
      if (!s) return s;
      const body = s.body.includes(marker) ? s.body.replace(marker, text) : text ? `${s.body}${s.body.endsWith('\n') || !s.body ? '' : '\n'}${text}` : s.body;
      return { ...s, body };
    });
  onProgress(0);
  try {
    const done = await uploadFiles(rt.config, files, onProgress);
    replace(done.map(markdownFor).join('\n'));
  } catch (err) {
    replace('');
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  } finally {
    onProgress(null);
  }
}

/**
 * The composer's uploads (spec §2 "uploads"): paste and drop on the textarea, an upload
 * button with a file picker, and a progress bar. `textarea` goes on the textarea, `ui` beside it.
 */
export function useComposerUploads(target: RefObject<HTMLTextAreaElement | null>) {
  const rt = useRuntime();
  const { t } = useT();
  const [progress, setProgress] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const start = (files: File[]) => void uploadIntoComposer(rt, target.current, files, setProgress);
  const textarea = {
    onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => {
      const files = filesOf(e.clipboardData);
      if (!files.length) return;
      e.preventDefault();
      start(files);
    },
    onDragOver: (e: DragEvent<HTMLTextAreaElement>) => {
      if (![...e.dataTransfer.types].includes('Files')) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent<HTMLTextAreaElement>) => {
      setOver(false);
      const files = filesOf(e.dataTransfer);
      if (!files.length) return;
      e.preventDefault();
      start(files);
    },
    'data-drop-over': over ? 'true' : undefined,
  };
  const ui = (
    <div className="composer-uploads d-flex align-items-center gap-2">
      <button type="button" className="btn btn-sm btn-outline-secondary" data-action="upload" onClick={() => picker.current?.click()} disabled={progress !== null}>
        <Icon name="upload" size={16} className="me-1" />
        {t('modules:composer.upload')}
      </button>
      <input
        ref={picker}
        type="file"
        multiple
        className="d-none"
        aria-label={t('modules:composer.upload')}
        onChange={(e) => {
          start([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {progress !== null && (
        <div className="progress flex-grow-1 composer-upload-progress" role="progressbar" aria-label={t('modules:composer.upload-progress')} aria-valuenow={Math.round(progress * 100)} aria-valuemin={0} aria-valuemax={100}>
          <div className="progress-bar" style={{ width: `${Math.round(progress * 100)}%` }} />
        </div>
      )}
    </div>
  );
  return { textarea, ui };
}
