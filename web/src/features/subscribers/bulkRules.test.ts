import { describe, expect, it } from 'vitest';
import { bulkOutcomeText, canConfirmBulk, fileError, reviewSummary } from './bulkRules';

describe('bulk rules', () => {
  it('enables the confirmation for users to add, or for existing ones to overwrite', () => {
    expect(canConfirmBulk({ toAdd: 1, existing: 0, overwrite: false })).toBe(true);
    expect(canConfirmBulk({ toAdd: 0, existing: 0, overwrite: true })).toBe(false);
    expect(canConfirmBulk({ toAdd: 0, existing: 3, overwrite: false })).toBe(false);
    expect(canConfirmBulk({ toAdd: 0, existing: 3, overwrite: true })).toBe(true);
  });

  it("reads .csv files only ('File format not supported')", () => {
    expect(fileError({ name: 'readers.csv' })).toBeNull();
    expect(fileError({ name: 'READERS.CSV' })).toBeNull();
    expect(fileError({ name: 'readers.xlsx' })).toBe('File format not supported');
    expect(fileError({ name: 'readers.csv.txt' })).toBe('File format not supported');
  });

  it('words the summary and the outcome', () => {
    expect(reviewSummary(5, 2)).toBe(
      'A total of 5 email addresses were identified in the CSV file, of which 2 can be added as new subscribers to the channel.',
    );
    expect(bulkOutcomeText({ added: 3, updated: 1, alreadySubscribed: 0, refused: 0 })).toBe('3 subscriber(s) added, 1 updated.');
    expect(bulkOutcomeText({ added: 0, updated: 0, alreadySubscribed: 2, refused: 1 })).toBe(
      '0 subscriber(s) added, 0 updated, 2 already subscribed, 1 refused.',
    );
  });
});
