//! A download as the tests see it (components/DownloadButton, lib/downloadCsv): `fetch` answers
//! when the test says (`answer`), and the saving of the blob is recorded in `saved` (jsdom has no
//! object URLs and no downloads). The stubs are put back when the test ends.
import { onTestFinished, vi } from 'vitest';
import { stubObjectUrls } from './objectUrls';

export function stubDownloads(objectUrl = 'blob:download') {
  let answer: (response: Response) => void = () => {};
  const fetchSpy = vi.fn((_url: string, _init?: RequestInit) => new Promise<Response>((resolve) => (answer = resolve)));
  vi.stubGlobal('fetch', fetchSpy);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  stubObjectUrls(objectUrl);
  const saved: { href: string; download: string }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
  return { fetchSpy, saved, answer: (response: Response) => answer(response) };
}
