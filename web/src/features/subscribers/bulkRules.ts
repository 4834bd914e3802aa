//! The bulk add's rules (spec 3 §2 'Bulk add', §5 'Bulk review'), as pure functions.
import { MESSAGES } from './subscriberText';

/** Only .csv files are read. */
export function fileError(file: Pick<File, 'name'>): string | null {
  return /\.csv$/i.test(file.name.trim()) ? null : MESSAGES.fileFormat;
}

export interface ConfirmRule {
  /** Users the check says can be added. */
  toAdd: number;
  /** Users already subscribed. */
  existing: number;
  overwrite: boolean;
}

/** 'Confirm and add subscribers' is enabled for users to add, or for existing ones to overwrite. */
export function canConfirmBulk({ toAdd, existing, overwrite }: ConfirmRule): boolean {
  return toAdd > 0 || (overwrite && existing > 0);
}

export function reviewSummary(identified: number, toAdd: number): string {
  return `A total of ${identified} email addresses were identified in the CSV file, of which ${toAdd} can be added as new subscribers to the channel.`;
}

export interface BulkOutcome {
  added: number;
  updated: number;
  alreadySubscribed: number;
  refused: number;
}

/** The toast after a confirmation: what was added, updated and left alone. */
export function bulkOutcomeText({ added, updated, alreadySubscribed, refused }: BulkOutcome): string {
  const parts = [`${added} subscriber(s) added`, `${updated} updated`];
  if (alreadySubscribed > 0) parts.push(`${alreadySubscribed} already subscribed`);
  if (refused > 0) parts.push(`${refused} refused`);
  return `${parts.join(', ')}.`;
}
