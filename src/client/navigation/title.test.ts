import { describe, expect, it } from 'vitest';
import { buildTitle, decodeEntities, topicTitleText } from './title';

describe('buildTitle', () => {
  it('fills the layout placeholders', () => {
    expect(buildTitle('{pageTitle} | {browserTitle}', 'Recent', 'Palaver')).toBe('Recent | Palaver');
    expect(buildTitle('{browserTitle}: {pageTitle}', 'Hi &amp; bye', 'P')).toBe('P: Hi & bye');
  });
  it('keeps $& and $\' in a title as typed (not replacement patterns)', () => {
    expect(buildTitle('{pageTitle} | {browserTitle}', "Costs $' and $& and $$", 'Palaver')).toBe("Costs $' and $& and $$ | Palaver");
    expect(buildTitle('{pageTitle} | {browserTitle}', 'About {browserTitle}', 'P')).toBe('About {browserTitle} | P');
  });
  it('falls back to the browser title without a page title', () => {
    expect(buildTitle('{pageTitle} | {browserTitle}', '', 'Palaver')).toBe('Palaver');
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric entities the server escapes with', () => {
    expect(decodeEntities('&lt;b&gt; &amp; &#91;&#91;x:y&#93;&#93; &#x27;q&#39;')).toBe("<b> & [[x:y]] 'q'");
    expect(decodeEntities('&unknown; &#0;')).toBe('&unknown; &#0;');
  });
  it('prefers titleRaw', () => {
    expect(topicTitleText({ title: 'A &amp; B', titleRaw: 'A & B' })).toBe('A & B');
    expect(topicTitleText({ title: 'A &amp; B' })).toBe('A & B');
  });
});
