import type { ClientConfig } from '../../../shared/types';
import { useRuntime } from '../../app/runtime';
import { Altcha } from './Altcha';
import { ThirdPartyCaptcha } from './ThirdParty';

/**
 * The forms' captcha: ALTCHA (made by this forum, the default), or reCAPTCHA / hCaptcha when
 * the admin chose one. `onSolved` gets the solution (ALTCHA's payload or the provider's token);
 * `captchaFields` names it as the server expects.
 */
export function Captcha({ onSolved, round = 0 }: { onSolved: (solution: string | null) => void; round?: number }) {
  const provider = useRuntime().config.captcha?.provider ?? 'altcha';
  if (provider === 'altcha') return <Altcha onSolved={onSolved} round={round} />;
  return <ThirdPartyCaptcha key={provider} provider={provider} onSolved={onSolved} round={round} />;
}

/** The form fields carrying a captcha solution: `altcha`, `g-recaptcha-response` or `h-captcha-response`. */
export function captchaFields(config: Pick<ClientConfig, 'captcha'>, solution: string | null): Record<string, string> {
  if (!solution) return {};
  const provider = config.captcha?.provider ?? 'altcha';
  if (provider === 'recaptcha') return { 'g-recaptcha-response': solution };
  if (provider === 'hcaptcha') return { 'h-captcha-response': solution };
  return { altcha: solution };
}
