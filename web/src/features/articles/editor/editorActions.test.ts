import { describe, expect, it } from 'vitest';
import { canPublish, editorButtons, successMessage } from './editorActions';

describe('editorButtons', () => {
  it.each([
    [null, 'Save to draft', 'Publish', false],
    ['Pending', 'Update draft', 'Publish', true],
    ['ReadyForReview', 'Update draft', 'Publish', true],
    ['Published', 'Convert to draft', 'Update', true],
    ['Archived', 'Update and unarchive', 'Publish', false],
  ] as const)('state %s: %s and %s, archive %s', (state, save, publish, archive) => {
    expect(editorButtons(state, true)).toEqual({ save, publish, archive });
  });

  it('offers no publish or update to users without publish rights', () => {
    expect(editorButtons(null, false)).toEqual({ save: 'Save to draft', publish: null, archive: false });
    expect(editorButtons('Pending', false)).toEqual({ save: 'Update draft', publish: null, archive: true });
  });

  it('leaves published and archived articles read-only for users without publish rights', () => {
    expect(editorButtons('Published', false)).toEqual({ save: null, publish: null, archive: false });
    expect(editorButtons('Archived', false)).toEqual({ save: null, publish: null, archive: false });
  });
});

describe('canPublish', () => {
  it('is for Administrators and Editors', () => {
    expect(canPublish('Administrator')).toBe(true);
    expect(canPublish('Editor')).toBe(true);
    expect(canPublish('Contributor')).toBe(false);
    expect(canPublish('Subscriber')).toBe(false);
    expect(canPublish(null)).toBe(false);
  });
});

describe('successMessage', () => {
  it('words each success', () => {
    expect(successMessage('save', 'Published')).toBe('Article saved as a draft');
    expect(successMessage('publish', null)).toBe('Article published');
    expect(successMessage('publish', 'Archived')).toBe('Article published');
    expect(successMessage('publish', 'Published')).toBe('Article updated');
    expect(successMessage('archive', 'Pending')).toBe('Article archived');
  });
});
