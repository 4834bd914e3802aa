//! The article body as the reader sees it. The server has sanitised the html already; this only
//! adjusts its links and players: spreadsheet downloads ('Excel download link') and links to other
//! sites open in a new tab without access to this page (rel=noopener), video players sit in a
//! box that keeps their aspect ratio at any width, and each PDF page shown as an image is followed
//! by its text in a disclosure (read by the server at upload), for screen readers and for anyone
//! who wants the words.

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

/** The text of one PDF page the body shows as an image (the article's `pageTexts`). */
export interface PageText {
  fileName: string;
  page: number;
  text: string;
}

/** The upload name an image links (`/uploads/<name>`, signed or not). */
const UPLOAD_NAME = /\/uploads\/([0-9a-f]{24}|[0-9a-f]{32})\.(png|jpg|gif)/;

/** 'Text of PDF page 3': a disclosure holding the page's paragraphs, built as text (never html). */
function pageTextDisclosure(page: PageText): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = 'insights-page-text';
  const summary = document.createElement('summary');
  summary.textContent = `Text of PDF page ${page.page}`;
  details.append(summary);
  for (const paragraph of page.text.split(/\n\s*\n/)) {
    const p = document.createElement('p');
    p.textContent = paragraph;
    details.append(p);
  }
  return details;
}

/**
 * The html with its links and video players adjusted and its PDF pages' texts added; parsed inert
 * (a template runs nothing).
 */
export function prepareArticleHtml(html: string, origin: string = window.location.origin, pageTexts: readonly PageText[] = []): string {
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

  const texts = new Map(pageTexts.map((page) => [page.fileName, page]));
  for (const image of texts.size ? content.querySelectorAll('img') : []) {
    const match = UPLOAD_NAME.exec(image.getAttribute('src') ?? '');
    const page = match && texts.get(`${match[1]}.${match[2]}`);
    if (!page) continue;
    if (!image.getAttribute('alt')) image.setAttribute('alt', `PDF page ${page.page}`);
    // After the image's top-level block: a paragraph cannot hold a disclosure.
    let block: Element = image;
    while (block.parentElement) block = block.parentElement;
    block.after(pageTextDisclosure(page));
  }

  return template.innerHTML;
}
