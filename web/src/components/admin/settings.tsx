//! The numbers every admin list and form shares (spec 1 §9). They come from the server's `config`
//! (PublisherLayout provides them); without a provider (component tests) the spec's values apply.
import { createContext, useContext, type ReactNode } from 'react';

export interface AdminSettings {
  /** Page-size choices of every list. */
  pageSizes: readonly number[];
  defaultPageSize: number;
  /** Default page size of tree lists (their roots are paged). */
  treePageSize: number;
  /** Delay between the last keystroke in a search box and the search. */
  searchDebounceMs: number;
  /** Delay between the start of a submit and the busy indicator. */
  busyIndicatorDelayMs: number;
}

export const SPEC_ADMIN_SETTINGS: AdminSettings = {
  pageSizes: [15, 30, 50, 100, 200],
  defaultPageSize: 15,
  treePageSize: 100,
  searchDebounceMs: 500,
  busyIndicatorDelayMs: 2000,
};

const AdminSettingsContext = createContext<AdminSettings>(SPEC_ADMIN_SETTINGS);

export function AdminSettingsProvider({ settings, children }: { settings: AdminSettings; children: ReactNode }) {
  return <AdminSettingsContext.Provider value={settings}>{children}</AdminSettingsContext.Provider>;
}

export function useAdminSettings(): AdminSettings {
  return useContext(AdminSettingsContext);
}
