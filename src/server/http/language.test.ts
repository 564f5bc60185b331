import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/constants.js';
import { intlLocale, languageDir, pickLanguage } from '../../shared/languages.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { languageFixture } from '../test/languages.js';
import { installedLanguages } from '../i18n.js';

describe('choosing a language from Accept-Language', () => {
  const offered = ['en-GB', 'en-US', 'de', 'fr', 'pt-BR', 'ar', 'zh-CN', 'zh-TW'];
  it('takes the best offered match by q-value, region, base language and Chinese script', () => {
    expect(pickLanguage('de-AT,de;q=0.9,en;q=0.5', offered)).toBe('de');
    expect(pickLanguage('fr;q=0.4, ar;q=0.8', offered)).toBe('ar');
    expect(pickLanguage('en-US', offered)).toBe('en-US');
    expect(pickLanguage('en', offered)).toBe('en-GB');
    expect(pickLanguage('pt-PT', offered)).toBe('pt-BR');
    expect(pickLanguage('zh-Hant-HK', offered)).toBe('zh-TW');
    expect(pickLanguage('zh', offered)).toBe('zh-CN');
    expect(pickLanguage('ja, ko;q=0.5', offered)).toBeUndefined();
    expect(pickLanguage('*', offered)).toBeUndefined();
    expect(pickLanguage('de;q=0', offered)).toBeUndefined();
    expect(pickLanguage('', offered)).toBeUndefined();
  });
  it('knows the direction and Intl locale of each shipped language', () => {
    expect(['ar', 'he', 'fa'].map(languageDir)).toEqual(['rtl', 'rtl', 'rtl']);
    expect(languageDir('de')).toBe('ltr');
    expect(intlLocale('zh-TW')).toBe('zh-TW');
  });
});

describe('the language of each reader', () => {
  let forum: TestForum;
  let fixture: ReturnType<typeof languageFixture>;

  beforeAll(async () => {
    fixture = languageFixture({
      fr: { global: { home: 'Accueil', language: 'Langue' }, error: { 'no-user': 'Ce membre n’existe pas' }, pages: { recent: 'Sujets récents' } },
      ar: { global: { home: 'الرئيسية' } },
    });
    forum = await startTestForum();
  });
  afterAll(async () => {
    await forum.close();
    fixture.restore();
  });

  const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0] ?? '';
  const config = (html: string) => JSON.parse(/<script id="client-config" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as { userLang: string; defaultLang: string; timeagoCodes: Record<string, string> };

  it('offers the shipped languages whose files exist', () => {
    expect(installedLanguages()).toEqual(expect.arrayContaining(['en-GB', 'fr', 'ar']));
    expect(installedLanguages()[0]).toBe('en-GB');
  });

  it("answers a guest in their browser's language, from the first byte, and in the forum's without one", async () => {
    const fr = await forum.client().get('/recent', { headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.3' } });
    expect(htmlTag(fr.text)).toContain('lang="fr"');
    expect(htmlTag(fr.text)).toContain('dir="ltr"');
    expect(config(fr.text)).toMatchObject({ userLang: 'fr', defaultLang: 'en-GB' });
    expect(config(fr.text).timeagoCodes).toMatchObject({ 'en-GB': 'en', fr: 'fr', ar: 'ar' });
    const plain = await forum.client().get('/recent');
    expect(htmlTag(plain.text)).toContain('lang="en-GB"');
  });

  it("keeps a guest's choice from the footer's cookie over the browser's language; Arabic is right to left", async () => {
    const res = await forum.client().get('/recent', { headers: { 'accept-language': 'fr', cookie: 'palaver_lang=ar' } });
    expect(htmlTag(res.text)).toContain('lang="ar"');
    expect(htmlTag(res.text)).toContain('dir="rtl"');
    // A cookie naming a language the forum does not offer is ignored.
    const odd = await forum.client().get('/recent', { headers: { cookie: 'palaver_lang=../../etc' } });
    expect(htmlTag(odd.text)).toContain('lang="en-GB"');
  });

  it("answers a member in their chosen language whatever their browser says, and the API's messages too", async () => {
    const { client, user } = await forum.loginAs();
    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { userLang: 'fr' } })).status).toBe(200);
    const page = await client.get('/recent', { headers: { 'accept-language': 'ar' } });
    expect(htmlTag(page.text)).toContain('lang="fr"');
    expect(config(page.text).userLang).toBe('fr');
    const missing = await client.get('/api/v3/users/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.status).toMatchObject({ key: 'error:no-user', message: 'Ce membre n’existe pas' });
  });

  it("serves the cookie banner's built-in texts in the reader's language, an admin's own words as written", async () => {
    type Banner = { cookies: { message: string; dismiss: string; link: string } };
    const banner = async (lang: string) => (config((await forum.client().get('/recent', { headers: { 'accept-language': lang } })).text) as unknown as Banner).cookies;
    expect(await banner('en-GB')).toMatchObject({ message: 'This website uses cookies to ensure you get the best experience on our website.', dismiss: 'Got it!', link: 'Learn more' });
    expect(await banner('id')).toMatchObject({ message: 'Situs web ini menggunakan cookie untuk memastikan Anda mendapatkan pengalaman terbaik.', dismiss: 'Mengerti!', link: 'Pelajari lebih lanjut' });
    expect((await banner('hi')).dismiss).toBe('ठीक है!');
    await forum.ctx.settings.set({ cookieConsentMessage: 'We bake our own cookies.' });
    try {
      expect(await banner('id')).toMatchObject({ message: 'We bake our own cookies.', dismiss: 'Mengerti!' });
    } finally {
      await forum.ctx.settings.set({ cookieConsentMessage: DEFAULT_SETTINGS.cookieConsentMessage });
    }
  });

  it("follows the forum's default language for guests and members who chose none", async () => {
    await forum.ctx.settings.set({ defaultLang: 'fr' });
    try {
      const guest = await forum.client().get('/recent');
      expect(htmlTag(guest.text)).toContain('lang="fr"');
      const { client } = await forum.loginAs();
      const page = await client.get('/recent');
      expect(config(page.text)).toMatchObject({ userLang: 'fr', defaultLang: 'fr' });
    } finally {
      await forum.ctx.settings.set({ defaultLang: 'en-GB' });
    }
  });

  it("serves a language's file with en-GB's text for the keys it lacks", async () => {
    const res = await forum.client().get('/assets/language/fr/global.json?v=1');
    expect(res.status).toBe(200);
    expect(res.body.home).toBe('Accueil');
    expect(res.body.search).toBe('Search');
  });
});
