import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { timeZoneName } from '../../../lib/dates';
import { PublicationTimes, publicationText } from './PublicationTimes';

const FIRST = new Date(2026, 2, 5, 14, 5).toISOString();
const UPDATED = new Date(2026, 2, 6, 9, 12).toISOString();

describe('PublicationTimes', () => {
  it('says when the article first reached readers, with the time zone, and when it was updated', () => {
    const zone = timeZoneName(new Date(FIRST));
    expect(publicationText({ firstPublishedAt: FIRST, updatedAt: UPDATED })).toBe(
      `First published 05 Mar 2026 14:05 ${zone} · Updated 06 Mar 2026 09:12`,
    );
    expect(publicationText({ firstPublishedAt: FIRST, updatedAt: null })).toBe(`First published 05 Mar 2026 14:05 ${zone}`);
    expect(publicationText({ firstPublishedAt: null, updatedAt: null })).toBe('');
  });

  it('renders machine-readable times, and nothing for an article never published', () => {
    const { container, rerender } = render(<PublicationTimes article={{ firstPublishedAt: FIRST, updatedAt: UPDATED }} />);
    const times = container.querySelectorAll('time');
    expect(Array.from(times).map((t) => t.getAttribute('datetime'))).toEqual([FIRST, UPDATED]);
    expect(screen.getByText(/First published/)).toHaveTextContent(/Updated 06 Mar 2026 09:12$/);
    rerender(<PublicationTimes article={{ firstPublishedAt: null }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
