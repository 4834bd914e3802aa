//! The publish confirmation (spec 2 §4): its variant (publish with subscribers, back-dated, without
//! subscribers; update with or without subscribers), when it offers to notify the subscribers, and
//! what `sendEmails` says. A fresh article published now always notifies; an update, a republish or a
//! back-dated publish notifies only when the user ticks the box.
import { formatDateTime } from '../../../lib/dates';
import type { ArticleState } from './editorActions';

export type PublishVariant = 'publish' | 'publishBackdated' | 'publishNoSubscribers' | 'update' | 'updateNoSubscribers';

export interface PublishContext {
  /** null: a new article. */
  state: ArticleState | null;
  wasPublishedPreviously: boolean;
  /** A custom publish date is set. */
  backdated: boolean;
  /** Active subscriptions of the chosen channel. */
  subscribers: number;
}

/** Updating: the article is published now. */
const updating = (ctx: PublishContext) => ctx.state === 'Published';

/** Never published: nothing was sent to subscribers about it yet. */
export function isFresh(ctx: Pick<PublishContext, 'state' | 'wasPublishedPreviously'>): boolean {
  return ctx.state !== 'Published' && !ctx.wasPublishedPreviously;
}

export function publishVariant(ctx: PublishContext): PublishVariant {
  if (updating(ctx)) return ctx.subscribers > 0 ? 'update' : 'updateNoSubscribers';
  if (ctx.subscribers === 0) return 'publishNoSubscribers';
  return ctx.backdated ? 'publishBackdated' : 'publish';
}

/** The notify-subscribers checkbox: updating, republishing or back-dating, and someone to notify. */
export function offersNotify(ctx: PublishContext): boolean {
  return (updating(ctx) || ctx.wasPublishedPreviously || ctx.backdated) && ctx.subscribers > 0;
}

/** `sendEmails` of the publish call. */
export function sendEmailsFor(ctx: PublishContext, notifyTicked: boolean): boolean {
  if (isFresh(ctx) && !ctx.backdated) return true;
  return notifyTicked;
}

/** '1 subscriber', '3 subscribers'. */
export function subscribersText(count: number): string {
  return `${count} ${count === 1 ? 'subscriber' : 'subscribers'}`;
}

export interface PublishDialogText {
  title: string;
  confirm: string;
  body: string;
  /** The checkbox's label when it is offered. */
  notifyLabel: string;
}

/** The dialog's words; `publishDate` is the custom date, when there is one. */
export function publishDialogText(ctx: PublishContext, publishDate: Date | null): PublishDialogText {
  const variant = publishVariant(ctx);
  const n = subscribersText(ctx.subscribers);
  const notifyLabel = `Notify ${n} by email`;
  const when = publishDate ? `with the publish date ${formatDateTime(publishDate)}` : 'now';
  switch (variant) {
    case 'update':
      return { title: 'Update article', confirm: 'Update', body: `Update this published article? The channel has ${n}.`, notifyLabel };
    case 'updateNoSubscribers':
      return {
        title: 'Update article',
        confirm: 'Update',
        body: 'Update this published article? The channel has no subscribers to notify.',
        notifyLabel,
      };
    case 'publishNoSubscribers':
      return {
        title: 'Publish article',
        confirm: 'Publish',
        body: `Publish this article ${when}? The channel has no subscribers to notify.`,
        notifyLabel,
      };
    case 'publishBackdated':
      return {
        title: 'Publish article',
        confirm: 'Publish',
        body: `Publish this article ${when}? It is back-dated, so its ${n} are notified only if you ask.`,
        notifyLabel,
      };
    case 'publish':
      return {
        title: 'Publish article',
        confirm: 'Publish',
        body: isFresh(ctx)
          ? `Publish this article now? ${n} will be notified.`
          : `Publish this article again? It was published before, so its ${n} are notified only if you ask.`,
        notifyLabel,
      };
  }
}
