import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showToast } from './Toaster';

describe('Toaster', () => {
  beforeEach(() => {
    // The toast's timers only: React's scheduler keeps its own. (Testing Library's findBy* waits on
    // a faked setTimeout: vi.waitFor, on vitest's own timers, waits for the toast instead.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hides a notice after 5000 ms (spec 3 §9)', async () => {
    void showToast({ message: 'Saved.', intent: 'success' });
    await vi.waitFor(() => expect(screen.getByText('Saved.')).toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(screen.getByText('Saved.')).toBeInTheDocument();
    // Hidden at 5000 ms (and gone after Blueprint's exit transition, well under a second).
    await act(() => vi.advanceTimersByTimeAsync(1 + 1000));
    expect(screen.queryByText('Saved.')).not.toBeInTheDocument();
  });

  it('keeps a notice with timeout 0 until it is dismissed', async () => {
    void showToast({ message: 'Stays.', timeout: 0 });
    await vi.waitFor(() => expect(screen.getByText('Stays.')).toBeInTheDocument());
    // (Twice: a hide that the first advance starts would end its exit transition in the second.)
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText('Stays.')).toBeInTheDocument();
  });
});
