import { describe, expect, it } from 'vitest';
import { composeQuery, editPayload, quoteBody, replyPayload, requestFromQuery } from './payload';

describe('compose route query', () => {
  it('carries cid, title and body for a new topic', () => {
    expect(composeQuery({ action: 'topics.post', cid: 3, title: 'Hi', body: 'x' })).toBe('cid=3&title=Hi&body=x');
    expect(composeQuery({ action: 'topics.post' })).toBe('cid=0');
  });
  it('carries pid for an edit', () => {
    expect(composeQuery({ action: 'posts.edit', pid: 9 })).toBe('pid=9');
  });
  it('carries tid, toPid, quoted and username for a quote', () => {
    expect(composeQuery({ action: 'posts.reply', tid: 1, toPid: 4, selectedPid: 4, username: 'ann' })).toBe('tid=1&toPid=4&quoted=1&username=ann');
  });
  it('round-trips', () => {
    const req = { action: 'posts.reply' as const, tid: 1, toPid: 2, title: 'T', body: 'B' };
    expect(requestFromQuery(composeQuery(req))).toMatchObject(req);
    expect(requestFromQuery('pid=5')).toEqual({ action: 'posts.edit', pid: 5 });
  });
});

describe('payloads', () => {
  it('quotes every line', () => {
    expect(quoteBody('@ann said:', 'a\nb')).toBe('@ann said:\n> a\n> b\n\n');
  });
  it('sends toPid and title only when present', () => {
    expect(replyPayload('x', 0)).toEqual({ content: 'x' });
    expect(replyPayload('x', 4)).toEqual({ content: 'x', toPid: 4 });
    expect(editPayload('x', null)).toEqual({ content: 'x' });
    expect(editPayload('x', 'T')).toEqual({ content: 'x', title: 'T' });
  });
});
