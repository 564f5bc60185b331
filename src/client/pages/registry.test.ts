import { describe, expect, it } from 'vitest';
import { moduleFor, templateName } from './registry';

describe('page registry', () => {
  it('prefers templateToRender', () => {
    expect(templateName({ template: { name: 'recent' }, templateToRender: 'popular' })).toBe('popular');
    expect(templateName({ template: { name: 'recent' } })).toBe('recent');
  });
  it('maps templates to modules; unknown ones to the error page', () => {
    expect(moduleFor('popular')).toBe('topic-list');
    expect(moduleFor('account/profile')).toBe('account/profile');
    expect(moduleFor('403')).toBe('error');
    expect(moduleFor('admin/dashboard')).toBe('admin/dashboard');
    expect(moduleFor('no/such-template')).toBe('error');
  });
});
