import { useState, type ReactNode } from 'react';
import { useRuntime } from '../../app/runtime';
import { Captcha, captchaFields } from './Captcha';

const CAPTCHA_KEYS = new Set(['error:captcha-required', 'error:invalid-captcha']);

/**
 * The login form's captcha: absent until the server asks for it (after repeated failed logins,
 * or too many tries at one account, even when the admin's own login captcha is off), then the
 * widget solves a challenge for every further try.
 */
export function useLoginCaptcha(): { widget: ReactNode; fields: () => Record<string, string>; failed: (err: unknown) => void } {
  const rt = useRuntime();
  const [needed, setNeeded] = useState(false);
  const [payload, setPayload] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  return {
    widget: needed ? <Captcha onSolved={setPayload} round={round} /> : null,
    fields: () => (needed ? captchaFields(rt.config, payload) : {}),
    failed: (err: unknown) => {
      const key = (err as { key?: unknown } | null)?.key;
      if (typeof key === 'string' && CAPTCHA_KEYS.has(key)) setNeeded(true);
      // A solution works once: every refused try needs a new one.
      if (needed) setRound((n) => n + 1);
    },
  };
}
