import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { UiProvider } from '../../components/blueprint';
import { browser } from '../../lib/browser';
import { ConfigProvider } from '../../lib/config';
import { testConfig } from '../../testing/fixtures';
import { useVersionCheck } from './useVersionCheck';

const CONFIG = testConfig({ version: '1.0.0' });
const IDLE = CONFIG.constants.idleTimeoutMs;
const NOTICE = 'A new version of Insights is available. Save your work, then refresh the page.';

function Checked() {
  useVersionCheck();
  return <p>App</p>;
}

/** The hook in a router at `path`, with the server answering `version` to POST /version. */
function renderAt(path: string, version: string) {
  const fetchVersion = vi.fn(async () => new Response(JSON.stringify({ version }), { status: 200 }));
  vi.stubGlobal('fetch', fetchVersion);
  const router = createMemoryRouter([{ path: '*', element: <Checked /> }], { initialEntries: [path] });
  render(
    <UiProvider>
      <ConfigProvider config={CONFIG}>
        <RouterProvider router={router} />
      </ConfigProvider>
    </UiProvider>,
  );
  return { fetchVersion };
}

describe('useVersionCheck (spec 3 §4)', () => {
  let reload: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    // Fake timers for the idle and poll timers and the toast's own; React's scheduler keeps its own.
    // (Testing Library's findBy* waits on a faked setTimeout: vi.waitFor, on vitest's timers, does not.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
  });
  afterEach(() => {
    reload.mockRestore();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("on an edit page, shows a 'Refresh' notice that stays, and reloads only when it is clicked", async () => {
    const { fetchVersion } = renderAt('/publisher/articles/edit/65a1b2c3d4e5f60718293a4b', '1.1.0');
    await act(() => vi.advanceTimersByTimeAsync(IDLE - 1000));
    expect(fetchVersion).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetchVersion).toHaveBeenCalledWith('/version', expect.objectContaining({ method: 'POST' }));

    await vi.waitFor(() => expect(screen.getByText(NOTICE)).toBeInTheDocument());
    // Not a notice that hides after 5 s: the reader may be typing.
    // (Twice: a hide that the first advance starts would end its exit transition in the second.)
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText(NOTICE)).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();

    // fireEvent: userEvent, through Testing Library's async wrapper, waits on a faked setTimeout.
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads at once elsewhere, without a notice', async () => {
    renderAt('/for-you', '1.1.0');
    await act(() => vi.advanceTimersByTimeAsync(IDLE));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
  });

  it('does nothing while the version is the same', async () => {
    const { fetchVersion } = renderAt('/publisher/articles/edit/65a1b2c3d4e5f60718293a4b', '1.0.0');
    await act(() => vi.advanceTimersByTimeAsync(IDLE + CONFIG.constants.versionPollMs));
    expect(fetchVersion).toHaveBeenCalledTimes(2);
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });
});
