//! The article body as the reader sees it. The server has sanitised the html already; this only
//! adjusts its links and players: spreadsheet downloads ('Excel download link') and links to other
//! sites open in a new tab without access to this page (rel=noopener), and video players sit in a
//! box that keeps their aspect ratio at any width.

const SPREADSHEET = /\.(xlsx?|csv)$/i;
/** Players of the embeds the editor allows that show video (Spotify and Buzzsprout are audio). */
const VIDEO_HOSTS = new Set(['player.vimeo.com', 'www.youtube.com', 'www.youtube-nocookie.com', 'youtube.com']);

function parse(href: string, origin: string): URL | null {
  try {
    return new URL(href, origin);
  } catch {
    return null;
  }
}

/** A link to a .xls, .xlsx or .csv file (query and fragment aside). */
export function isSpreadsheetLink(href: string, origin: string): boolean {
  const url = parse(href, origin);
  return !!url && SPREADSHEET.test(url.pathname);
}

/** An http(s) link to another site. */
export function isExternalLink(href: string, origin: string): boolean {
  const url = parse(href, origin);
  return !!url && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin;
}

function isVideoPlayer(src: string, origin: string): boolean {
  const url = parse(src, origin);
  return !!url && VIDEO_HOSTS.has(url.hostname);
}

/** The html with its links and video players adjusted; parsed inert (a template runs nothing). */
export function prepareArticleHtml(html: string, origin: string = window.location.origin): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const content = template.content;

  for (const link of content.querySelectorAll('a[href]')) {
    const href = link.getAttribute('href') ?? '';
    const spreadsheet = isSpreadsheetLink(href, origin);
    if (spreadsheet) link.classList.add('insights-article-download');
    if (spreadsheet || isExternalLink(href, origin)) {
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    }
  }

  for (const iframe of content.querySelectorAll('iframe')) {
    if (!isVideoPlayer(iframe.getAttribute('src') ?? '', origin)) continue;
    const box = document.createElement('div');
    box.className = 'insights-article-video';
    iframe.removeAttribute('height');
    iframe.setAttribute('width', '100%');
    iframe.replaceWith(box);
    box.append(iframe);
  }

  return template.innerHTML;
}
