//! Roles and the route access table (spec 1 §6). The server checks every call itself;
//! these rules only decide what the UI offers and which screen a route shows.

export type Role = 'Administrator' | 'Editor' | 'Contributor' | 'Subscriber';

export const ALL_ROLES: readonly Role[] = ['Administrator', 'Editor', 'Contributor', 'Subscriber'];
export const STAFF: readonly Role[] = ['Administrator', 'Editor', 'Contributor'];

/**
 * Spec 1 §6 "Route access". The table's roles are exact lists (Administrator is not in
 * "Article add, edit"), except "All reader pages: Subscriber": spec 1 §2 opens the reader
 * area to all signed-in roles, so every role may read.
 */
export const ACCESS = {
  readerPages: ALL_ROLES,
  articleList: STAFF,
  articleStats: STAFF,
  articleAdd: ['Editor', 'Contributor'],
  // Spec 2 §6: an Administrator edits any article (the list links its titles to the editor).
  articleEdit: ['Administrator', 'Editor', 'Contributor'],
  taxonomy: STAFF,
  tags: STAFF,
  desks: STAFF,
  users: STAFF,
  templateList: STAFF,
  templateEdit: ['Editor'],
  promotions: ['Administrator'],
  channelList: STAFF,
  channelEdit: ['Administrator', 'Editor'],
  channelSubscribers: ['Administrator', 'Editor'],
  // Client firms (issue 39): every staff role reads them; Administrators and Editors change them.
  firms: STAFF,
  firmEdit: ['Administrator', 'Editor'],
  // The audit trail (issue 40): Administrators only, as the server has it.
  audit: ['Administrator'],
  // The trial policy and its terms (issue 40): Administrators only, as the server has it.
  trialPolicy: ['Administrator'],
  // Disclosures per channel and desk (issue 40): Administrators write them.
  disclosures: ['Administrator'],
} as const satisfies Record<string, readonly Role[]>;

export function isStaff(role: Role | null | undefined): boolean {
  return !!role && STAFF.includes(role);
}

export function hasAccess(role: Role | null | undefined, allowed: readonly Role[]): boolean {
  return !!role && allowed.includes(role);
}

/** The app root's target (spec 1 §2 "Redirects"): the publisher area for staff on wide screens. */
export function landingPath(role: Role | null | undefined, wide: boolean): string {
  return isStaff(role) && wide ? '/publisher/articles' : '/for-you';
}
