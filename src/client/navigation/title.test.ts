import { describe, expect, it } from 'vitest';
import { buildTitle } from './title';

describe('buildTitle', () => {
  it('fills the layout placeholders', () => {
    expect(buildTitle('{pageTitle} | {browserTitle}', 'Recent', 'Palaver')).toBe('Recent | Palaver');
    expect(buildTitle('{browserTitle}: {pageTitle}', 'Hi &amp; bye', 'P')).toBe('P: Hi & bye');
  });
  it('falls back to the browser title without a page title', () => {
    expect(buildTitle('{pageTitle} | {browserTitle}', '', 'Palaver')).toBe('Palaver');
  });
});
