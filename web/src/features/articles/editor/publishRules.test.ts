import { describe, expect, it } from 'vitest';
import { offersNotify, publishDialogText, publishVariant, sendEmailsFor, subscribersText, type PublishContext } from './publishRules';

const fresh: PublishContext = { state: null, wasPublishedPreviously: false, backdated: false, subscribers: 3 };

describe('publishVariant', () => {
  it.each([
    ['a new article, subscribers', fresh, 'publish'],
    ['a draft, back-dated, subscribers', { ...fresh, state: 'Pending', backdated: true }, 'publishBackdated'],
    ['a draft, no subscribers', { ...fresh, state: 'Pending', subscribers: 0 }, 'publishNoSubscribers'],
    ['back-dated, no subscribers', { ...fresh, backdated: true, subscribers: 0 }, 'publishNoSubscribers'],
    ['a published article, subscribers', { ...fresh, state: 'Published', wasPublishedPreviously: true }, 'update'],
    ['a published article, no subscribers', { ...fresh, state: 'Published', subscribers: 0 }, 'updateNoSubscribers'],
    ['an archived article, subscribers', { ...fresh, state: 'Archived', wasPublishedPreviously: true }, 'publish'],
  ] as [string, PublishContext, string][])('%s: %s', (_name, ctx, variant) => {
    expect(publishVariant(ctx)).toBe(variant);
  });
});

describe('offersNotify', () => {
  it('offers the checkbox when updating, republishing or back-dating, with subscribers', () => {
    expect(offersNotify({ ...fresh, state: 'Published' })).toBe(true);
    expect(offersNotify({ ...fresh, state: 'Pending', wasPublishedPreviously: true })).toBe(true);
    expect(offersNotify({ ...fresh, backdated: true })).toBe(true);
  });

  it('never offers it for a fresh publish now, or without subscribers', () => {
    expect(offersNotify(fresh)).toBe(false);
    expect(offersNotify({ ...fresh, state: 'Pending' })).toBe(false);
    expect(offersNotify({ ...fresh, state: 'Published', subscribers: 0 })).toBe(false);
    expect(offersNotify({ ...fresh, backdated: true, subscribers: 0 })).toBe(false);
  });
});

describe('sendEmailsFor', () => {
  it('always notifies for a fresh article published now', () => {
    expect(sendEmailsFor(fresh, false)).toBe(true);
    expect(sendEmailsFor({ ...fresh, state: 'Pending', subscribers: 0 }, false)).toBe(true);
  });

  it('follows the checkbox otherwise', () => {
    for (const ctx of [
      { ...fresh, state: 'Published' as const },
      { ...fresh, state: 'Archived' as const, wasPublishedPreviously: true },
      { ...fresh, backdated: true },
    ]) {
      expect(sendEmailsFor(ctx, true)).toBe(true);
      expect(sendEmailsFor(ctx, false)).toBe(false);
    }
  });
});

describe('publishDialogText', () => {
  it('says how many subscribers a fresh publish notifies', () => {
    expect(publishDialogText(fresh, null)).toMatchObject({
      title: 'Publish article',
      confirm: 'Publish',
      body: 'Publish this article now? 3 subscribers will be notified.',
    });
    expect(publishDialogText({ ...fresh, subscribers: 1 }, null).body).toContain('1 subscriber will be notified');
  });

  it('words the update, back-dated and no-subscriber variants', () => {
    expect(publishDialogText({ ...fresh, state: 'Published' }, null)).toMatchObject({ title: 'Update article', confirm: 'Update' });
    expect(publishDialogText({ ...fresh, state: 'Published', subscribers: 0 }, null).body).toContain('no subscribers to notify');
    const backdated = publishDialogText({ ...fresh, backdated: true }, new Date(2026, 2, 5, 14, 5));
    expect(backdated.body).toContain('with the publish date 05 Mar 2026 14:05');
    expect(backdated.body).toContain('back-dated');
    expect(backdated.notifyLabel).toBe('Notify 3 subscribers by email');
    expect(publishDialogText({ ...fresh, subscribers: 0 }, null).body).toBe(
      'Publish this article now? The channel has no subscribers to notify.',
    );
  });

  it('counts subscribers in words', () => {
    expect(subscribersText(0)).toBe('0 subscribers');
    expect(subscribersText(1)).toBe('1 subscriber');
    expect(subscribersText(2)).toBe('2 subscribers');
  });
});
