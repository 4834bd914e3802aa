//! jsdom has no object URLs: images fetched with the bearer token (lib/useAuthenticatedImage) get
//! `url` for every blob. The spies are put back by restoreMocks.
import { vi } from 'vitest';

export function stubObjectUrls(url = 'blob:image') {
  URL.createObjectURL ??= () => '';
  URL.revokeObjectURL ??= () => {};
  vi.spyOn(URL, 'createObjectURL').mockReturnValue(url);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
}
