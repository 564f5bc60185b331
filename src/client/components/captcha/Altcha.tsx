import { useCallback, useEffect, useRef, useState } from 'react';
import { altchaPayload, solveAltcha, type AltchaChallenge } from '../../../shared/sha256';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';

type State = 'working' | 'done' | 'failed';

/**
 * The captcha of the register and login forms: fetches a challenge from this forum (no third
 * party) and solves its proof of work in the page, in slices, then hands the payload to the
 * form. A new challenge is fetched when `round` changes (each solution works once).
 */
export function Altcha({ onSolved, round = 0 }: { onSolved: (payload: string | null) => void; round?: number }) {
  const rt = useRuntime();
  const { t } = useT();
  const [state, setState] = useState<State>('working');
  const [tries, setTries] = useState(0);
  const solved = useRef(onSolved);
  solved.current = onSolved;
  const url = rt.config.captcha?.challengeUrl ?? `${rt.config.relative_path}/api/captcha/challenge`;

  const run = useCallback(
    async (signal: AbortSignal) => {
      setState('working');
      solved.current(null);
      try {
        const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', signal });
        if (!res.ok) throw new Error(String(res.status));
        const challenge = (await res.json()) as AltchaChallenge;
        const n = await solveAltcha(challenge, { signal });
        if (signal.aborted) return;
        if (n === null) throw new Error('unsolved');
        solved.current(altchaPayload(challenge, n));
        setState('done');
      } catch {
        if (!signal.aborted) setState('failed');
      }
    },
    [url],
  );

  useEffect(() => {
    const ctl = new AbortController();
    void run(ctl.signal);
    return () => ctl.abort();
  }, [run, round, tries]);

  return (
    <div id={rt.config.captcha?.targetId ?? 'altcha-captcha'} className="altcha border rounded px-3 py-2 mb-3 d-flex align-items-center gap-2" data-state={state} aria-live="polite">
      {state === 'working' && <span className="spinner-border spinner-border-sm text-secondary" aria-hidden="true" />}
      {state === 'done' && <span className="text-success fw-bold" aria-hidden="true">✓</span>}
      <span className="small flex-grow-1">
        {state === 'working' ? t('register:captcha-working') : state === 'done' ? t('register:captcha-done') : t('register:captcha-failed')}
      </span>
      {state === 'failed' && (
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setTries((n) => n + 1)}>
          {t('register:captcha-retry')}
        </button>
      )}
      <span className="small text-body-secondary">{t('register:captcha')}</span>
    </div>
  );
}
