import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from './logger';
import { uploadImage } from './upload';

const file = () => new File(['png'], 'chart.png', { type: 'image/png' });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(logger, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadImage', () => {
  it('posts the file with the token and resolves to the answer', async () => {
    const stored = { link: '/uploads/a.png', fileName: 'a.png', contentType: 'image/png', size: 3 };
    fetchMock.mockResolvedValue(new Response(JSON.stringify(stored), { status: 201 }));
    await expect(uploadImage(file(), 't')).resolves.toEqual(stored);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer t');
    expect((init?.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it.each([
    ['too large (413)', new Response('Payload too large', { status: 413 }), 'The image is too large'],
    [
      'refused with the server’s error',
      new Response(JSON.stringify({ code: 'BAD_USER_INPUT', message: 'File format not supported' }), { status: 400 }),
      'BAD_USER_INPUT::File format not supported',
    ],
    ['failed without a JSON body', new Response('<html>oops</html>', { status: 502 }), 'Upload failed (HTTP 502)'],
  ])('throws the message to show when %s, and logs it', async (_, response, message) => {
    fetchMock.mockResolvedValue(response);
    await expect(uploadImage(file(), 't')).rejects.toThrow(message);
    expect(logger.warn).toHaveBeenCalledWith(`Image upload failed: ${message}`, { file: 'chart.png', status: response.status });
  });

  it('says it cannot connect when the server cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(uploadImage(file(), 't')).rejects.toThrow('Cannot connect to server');
    expect(logger.warn).toHaveBeenCalledWith('Image upload failed: Failed to fetch', { file: 'chart.png' });
  });
});
