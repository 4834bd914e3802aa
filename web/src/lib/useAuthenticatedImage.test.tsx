import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '../testing/renderApp';
import { AuthContextProvider } from './auth';
import { HttpError } from './authorizedFetch';
import { logger } from './logger';
import { useAuthenticatedImage } from './useAuthenticatedImage';

const wrapper = ({ children }: { children: ReactNode }) => <AuthContextProvider value={fakeAuth()}>{children}</AuthContextProvider>;

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let created = 0;
beforeEach(() => {
  created = 0;
  fetchMock = vi.fn<typeof fetch>(async () => new Response(new Blob(['png'], { type: 'image/png' })));
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no object URLs: defined here, spied on (restoreMocks puts them back).
  URL.createObjectURL ??= () => '';
  URL.revokeObjectURL ??= () => {};
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:image-${++created}`);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useAuthenticatedImage', () => {
  it('fetches the image with the bearer token and gives its object URL, loading meanwhile', async () => {
    const { result } = renderHook(() => useAuthenticatedImage('/tableau/views/v1/image'), { wrapper });
    expect(result.current).toEqual({ url: null, loading: true, error: null });
    await waitFor(() => expect(result.current).toEqual({ url: 'blob:image-1', loading: false, error: null }));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/tableau/views/v1/image');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
  });

  it('fetches nothing without a path', () => {
    const { result } = renderHook(() => useAuthenticatedImage(null), { wrapper });
    expect(result.current).toEqual({ url: null, loading: false, error: null });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('revokes the object URL when the path changes and when the component unmounts', async () => {
    const { result, rerender, unmount } = renderHook(({ path }) => useAuthenticatedImage(path), {
      wrapper,
      initialProps: { path: '/contributor-profile-picture/a' },
    });
    await waitFor(() => expect(result.current.url).toBe('blob:image-1'));

    rerender({ path: '/contributor-profile-picture/b' });
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:image-1');
    // Never the previous image while the next one loads.
    expect(result.current.url).toBeNull();
    await waitFor(() => expect(result.current.url).toBe('blob:image-2'));

    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:image-2');
    expect(URL.revokeObjectURL).toHaveBeenCalledTimes(2);
  });

  it('creates no object URL for an image that arrives after the unmount', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { unmount } = renderHook(() => useAuthenticatedImage('/tableau/views/v1/image'), { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    unmount();
    await act(async () => answer(new Response(new Blob(['png']))));
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('gives the error and logs a warning when the server refuses', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'No photo' }), { status: 404 }));
    const { result } = renderHook(() => useAuthenticatedImage('/contributor-profile-picture/a', 'Contributor photo'), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.url).toBeNull();
    expect(result.current.error).toBeInstanceOf(HttpError);
    expect((result.current.error as HttpError).status).toBe(404);
    expect(warn).toHaveBeenCalledWith('Contributor photo failed to load: HTTP 404', { path: '/contributor-profile-picture/a' });
  });
});
