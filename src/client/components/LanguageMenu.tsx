import { LANGUAGE_COOKIE, languageInfo } from '../../shared/languages';
import { api } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';

/**
 * The footer's language menu: the languages the forum offers (the client config's timeagoCodes
 * has one entry per offered language). A guest's choice is kept in a cookie for a year, a
 * member's in their settings; the page then reloads in the chosen language.
 */
export function LanguageMenu() {
  const rt = useRuntime();
  const { t } = useT();
  const offered = Object.keys(rt.config.timeagoCodes ?? {});
  if (offered.length < 2) return null;
  const choose = async (code: string) => {
    if (rt.config.uid > 0) {
      await api(rt.config, 'PUT', `/users/${rt.config.uid}/settings`, { settings: { userLang: code } });
    } else {
      document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=${rt.config.relative_path || '/'}; max-age=31536000; SameSite=Lax`;
    }
    window.location.reload();
  };
  return (
    <div className="language-menu d-flex align-items-center gap-2 small">
      <label htmlFor="footer-language" className="text-secondary">{t('global:language')}</label>
      <select id="footer-language" className="form-select form-select-sm w-auto" value={rt.config.userLang} onChange={(e) => void choose(e.target.value)} data-testid="language-menu">
        {offered.map((code) => {
          const info = languageInfo(code);
          return (
            <option key={code} value={code} lang={code} dir={info?.dir ?? 'ltr'}>
              {info?.name ?? code}
            </option>
          );
        })}
      </select>
    </div>
  );
}
