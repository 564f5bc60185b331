import { describe, expect, it } from 'vitest';
import { notificationHref } from './actions';

describe('notificationHref', () => {
  it('puts the relative path in front of the notification\'s path once', () => {
    expect(notificationHref('', '/post/5')).toBe('/post/5');
    expect(notificationHref('/forum', '/post/5')).toBe('/forum/post/5');
    expect(notificationHref('/forum', '/forum/post/5')).toBe('/forum/post/5');
    expect(notificationHref('/forum', 'post/5')).toBe('/forum/post/5');
  });
});
