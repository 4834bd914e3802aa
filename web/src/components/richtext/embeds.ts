//! Video and audio embeds (spec 2 "Editor uploads": only three providers). A pasted page or player
//! URL becomes the provider's player URL; anything else is refused. The server keeps only iframes
//! of these players, so the check runs on the parsed URL (as the browser reads it), never on the
//! text: `https://player.vimeo.com.evil.com/…`, `https://vimeo.com@evil.com/…` and `javascript:`
//! are all refused.

export type EmbedProvider = 'vimeo' | 'spotify' | 'buzzsprout';

export interface Embed {
  provider: EmbedProvider;
  /** The player URL, the iframe's `src`. */
  src: string;
  /** The iframe's height in px (its width is 100%). */
  height: number;
  /** The iframe's accessible name. */
  title: string;
}

export const EMBED_REFUSAL = 'Only Vimeo, Spotify and Buzzsprout links can be embedded.';

const SPOTIFY_TYPES = new Set(['episode', 'track', 'show', 'playlist', 'album']);
/** Single items get Spotify's compact player; collections the taller one with a track list. */
const SPOTIFY_COMPACT = new Set(['episode', 'track']);
const NUMBER = /^\d{1,20}$/;
const SPOTIFY_ID = /^[A-Za-z0-9]{1,64}$/;
const SPOTIFY_LOCALE = /^intl-[a-z]{2}(-[a-z]{2})?$/i;
const PATH_SEGMENT = /^[A-Za-z0-9_-]{1,200}$/;

function parseUrl(input: string): URL | null {
  try {
    const url = new URL(input.trim());
    const plain = (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.port;
    return plain ? url : null;
  } catch {
    return null;
  }
}

function vimeo(id: string): Embed {
  return { provider: 'vimeo', src: `https://player.vimeo.com/video/${id}`, height: 360, title: 'Vimeo video player' };
}

/** The player for a Vimeo, Spotify or Buzzsprout URL; null for anything else. */
export function parseEmbedUrl(input: string): Embed | null {
  const url = parseUrl(input);
  if (!url) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  switch (url.hostname) {
    case 'vimeo.com':
    case 'www.vimeo.com':
      // https://vimeo.com/123
      return segments.length === 1 && NUMBER.test(segments[0]) ? vimeo(segments[0]) : null;
    case 'player.vimeo.com':
      // https://player.vimeo.com/video/123
      return segments.length === 2 && segments[0] === 'video' && NUMBER.test(segments[1]) ? vimeo(segments[1]) : null;
    case 'open.spotify.com': {
      // https://open.spotify.com/[intl-xx/][embed/]<type>/<id>
      const rest = segments.filter((s, i) => !(i === 0 && SPOTIFY_LOCALE.test(s)));
      const [type, id, ...extra] = rest[0] === 'embed' ? rest.slice(1) : rest;
      if (extra.length > 0 || !SPOTIFY_TYPES.has(type) || !SPOTIFY_ID.test(id ?? '')) return null;
      return {
        provider: 'spotify',
        src: `https://open.spotify.com/embed/${type}/${id}`,
        height: SPOTIFY_COMPACT.has(type) ? 152 : 352,
        title: 'Spotify player',
      };
    }
    case 'buzzsprout.com':
    case 'www.buzzsprout.com':
      // https://www.buzzsprout.com/<podcast>/<episode>[-slug][/…]: the path is kept, the query
      // (player options) is dropped.
      if (segments.length < 2 || !NUMBER.test(segments[0]) || !segments.every((s) => PATH_SEGMENT.test(s))) return null;
      return { provider: 'buzzsprout', src: `https://www.buzzsprout.com/${segments.join('/')}`, height: 200, title: 'Buzzsprout player' };
    default:
      return null;
  }
}
