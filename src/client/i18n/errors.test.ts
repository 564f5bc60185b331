import { describe, expect, it } from 'vitest';
import { apiError } from '../app/api';
import { classifyResponse } from '../navigation/response';
import { createI18n, errorText } from './index';

// A member reading French: the server's message is English whatever the member reads.
const i18n = createI18n('fr', {
  fr: { error: { 'too-many-posts': 'Vous ne pouvez poster qu’une fois toutes les %1 secondes', 'no-privileges': 'Privilèges insuffisants.' } },
  'en-GB': { error: { 'too-many-posts': 'You can only post once every %1 second(s)', 'invalid-data': 'Invalid data: %1' } },
});

const envelope = (key: string, message: string, params?: (string | number)[]) => ({
  status: { code: 'bad-request', message, key, ...(params ? { params } : {}) },
  response: {},
});

describe('errors shown to a member', () => {
  it("shows an API error from its key and params in the member's language, not the server's English", () => {
    const err = apiError(400, envelope('error:too-many-posts', 'You can only post once every 10 second(s)', [10]));
    expect(err.key).toBe('error:too-many-posts');
    expect(err.params).toEqual([10]);
    expect(errorText(i18n, err)).toBe('Vous ne pouvez poster qu’une fois toutes les 10 secondes');
  });

  it('shows a param that is a time (status.dates) as a date in the reader\'s language', () => {
    const fr = createI18n('fr', { fr: { error: { 'user-banned-reason-until': 'Banni jusqu’au %1 (raison : %2)' } }, 'en-GB': { error: {} } });
    const until = Date.UTC(2031, 2, 14, 12, 0);
    const body = { status: { code: 'forbidden', message: 'x', key: 'error:user-banned-reason-until', params: [until, 'spam'], dates: [0] }, response: {} };
    const err = apiError(403, body);
    expect(err.dates).toEqual([0]);
    const text = errorText(fr, err);
    expect(text).toContain('14 mars 2031');
    expect(text).toContain('(raison : spam)');
    // Without `dates` a number stays a number.
    expect(errorText(fr, apiError(403, { ...body, status: { ...body.status, dates: undefined } }))).toContain(String(until));
  });

  it('falls back to en-GB for a key the language lacks, then to the message for an unknown key', () => {
    expect(errorText(i18n, apiError(400, envelope('error:invalid-data', 'Invalid data: body/cid', ['body/cid'])))).toBe('Invalid data: body/cid');
    expect(errorText(i18n, apiError(400, envelope('error:brand-new', 'Something new happened')))).toBe('Something new happened');
  });

  it('keeps params with commas and brackets whole (no [[key, params]] parsing)', () => {
    expect(errorText(i18n, apiError(400, envelope('error:invalid-data', 'x', ['a, b]]'])))).toBe('Invalid data: a, b]]');
  });

  it('translates [[ns:key]] markers of errors without a key (no connection, socket errors)', () => {
    expect(errorText(i18n, new Error('[[error:no-privileges]]'))).toBe('Privilèges insuffisants.');
    expect(errorText(i18n, Object.assign(new Error('[[error:too-many-posts, 5]]'), { key: 'error:too-many-posts', params: [5] }))).toContain('toutes les 5 secondes');
    expect(errorText(i18n, apiError(500, null))).toBe('error:api.500');
  });

  it('keeps the key of a page load that fails with an error envelope', () => {
    const outcome = classifyResponse({ status: 429, body: envelope('error:too-many-posts', 'English', [3]), redirectHeader: null, attempt: 0, isInternal: () => true });
    expect(outcome).toMatchObject({ kind: 'toast', key: 'error:too-many-posts', params: [3] });
    expect(errorText(i18n, outcome)).toBe('Vous ne pouvez poster qu’une fois toutes les 3 secondes');
  });
});
