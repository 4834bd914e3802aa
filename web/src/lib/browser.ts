//! Full-page navigation, behind one object so tests can observe it (jsdom cannot navigate).
export const browser = {
  reload(): void {
    window.location.reload();
  },
  /** Leaves the app for another page (landing page, profile page, sign-out). */
  assign(url: string): void {
    window.location.assign(url);
  },
};
