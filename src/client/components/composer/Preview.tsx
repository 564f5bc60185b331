import { useEffect, useState } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { api } from '../../app/api';
import { PostContent } from '../PostContent';

/** The server-rendered preview of the composer text, refreshed 400 ms after typing stops. */
export function Preview({ content }: { content: string }) {
  const rt = useRuntime();
  const { t } = useT();
  const [html, setHtml] = useState('');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!content.trim()) {
      setHtml('');
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      api<{ html: string } | string>(rt.config, 'POST', '/posts/preview', { content })
        .then((res) => {
          if (ctl.signal.aborted) return;
          setHtml(typeof res === 'string' ? res : (res?.html ?? ''));
          setFailed(false);
        })
        .catch(() => !ctl.signal.aborted && setFailed(true));
    }, 400);
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, [content, rt]);
  if (failed) return <p className="text-body-secondary small">{t('modules:composer.preview-failed')}</p>;
  if (!html) return <p className="text-body-secondary small">{t('modules:composer.preview-empty')}</p>;
  return <PostContent html={html} />;
}
