//! Where each share method of the share dialog sends the article (spec 3 §2: Email, Link, Twitter,
//! LinkedIn, Facebook, QR code).

export interface ShareTarget {
  title: string;
  url: string;
}

export function emailShareUrl({ title, url }: ShareTarget): string {
  return `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${url}`)}`;
}

export function twitterShareUrl({ title, url }: ShareTarget): string {
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodeURIComponent(url)}`;
}

export function linkedInShareUrl({ url }: ShareTarget): string {
  return `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`;
}

export function facebookShareUrl({ url }: ShareTarget): string {
  return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`;
}
