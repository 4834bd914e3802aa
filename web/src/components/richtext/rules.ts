//! The editor's rules that do not need an editor: what may be inserted where, and which ids and
//! link addresses are accepted (the same checks the server's sanitiser makes, so nothing the editor
//! writes is dropped on save).

export const PROMOTIONAL_CONTENT_IN_LIST = "You can't insert Promotional Content in a list.";

/** Node types that make a position "in a list". */
const LIST_TYPES = new Set(['list', 'listitem']);

/**
 * Why a promotional content block cannot go where the selection is, or null when it can.
 * `selectionNodeTypes` are the Lexical types of the selected nodes and all their ancestors.
 */
export function promotionalContentRefusal(selectionNodeTypes: Iterable<string>): string | null {
  for (const type of selectionNodeTypes) {
    if (LIST_TYPES.has(type)) return PROMOTIONAL_CONTENT_IN_LIST;
  }
  return null;
}

/** The server's id format (24 lowercase hex digits, like a MongoDB ObjectId). */
export function isPromotionalContentId(id: string): boolean {
  return /^[0-9a-f]{24}$/.test(id);
}

export function isChartId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(id);
}

export const LINK_RULE = 'Enter a web address (http or https) or a mailto: address.';

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The address a link gets, or null when it is not an http, https or mailto URL. An address
 * typed without a scheme ("example.com/report") is taken as https.
 */
export function normalizeLinkUrl(input: string): string | null {
  const text = input.trim();
  if (!text || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if (!LINK_PROTOCOLS.has(url.protocol)) return null;
    if (url.protocol === 'mailto:') return url.pathname.includes('@') ? url.href : null;
    // A host with a dot (or localhost): "https://report" is a typo more often than an address.
    return url.hostname.includes('.') || url.hostname === 'localhost' ? url.href : null;
  } catch {
    return null;
  }
}

/** Whether `url` may be a link's address as it is (it already has its scheme). */
export function isAllowedLinkUrl(url: string): boolean {
  return /^(https?|mailto):/i.test(url) && normalizeLinkUrl(url) !== null;
}
