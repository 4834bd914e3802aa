//! The share dialog (spec 3 §2): Email, Link ('Link copied to clipboard'), Twitter, LinkedIn,
//! Facebook and a QR code of the link. Loaded only when a reader opens it, so the QR code library
//! stays out of the article page's first load.
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { AnchorButton, Button } from '../../../components/Button';
import { copyLink } from '../../../components/copyLink';
import { Dialog } from '../../../components/Dialog';
import { logger } from '../../../lib/logger';
import { emailShareUrl, facebookShareUrl, linkedInShareUrl, twitterShareUrl, type ShareTarget } from './shareLinks';

export interface ShareDialogProps extends ShareTarget {
  isOpen: boolean;
  onClose: () => void;
}

export default function ShareDialog({ isOpen, onClose, title, url }: ShareDialogProps) {
  const qrCode = useQrCode(url);
  const target = { title, url };

  return (
    <Dialog isOpen={isOpen} title="Share this article" icon="share" onClose={onClose} footer={<Button text="Close" onClick={onClose} />}>
      <div className="insights-share-methods" role="group" aria-label="Share methods">
        <AnchorButton href={emailShareUrl(target)} icon="envelope" text="Email" />
        <Button icon="link" text="Copy link" onClick={() => void copyLink(url, 'Copy it from the address bar instead.')} />
        <AnchorButton href={twitterShareUrl(target)} target="_blank" rel="noopener noreferrer" text="Twitter" />
        <AnchorButton href={linkedInShareUrl(target)} target="_blank" rel="noopener noreferrer" text="LinkedIn" />
        <AnchorButton href={facebookShareUrl(target)} target="_blank" rel="noopener noreferrer" text="Facebook" />
      </div>
      <p className="insights-share-url">{url}</p>
      <div className="insights-share-qr">
        {qrCode ? <img src={qrCode} alt="QR code of the article link" width={180} height={180} /> : <span>Drawing the QR code…</span>}
      </div>
    </Dialog>
  );
}

/** The link as an SVG QR code in a data URL (SVG needs no canvas, so it also draws in tests). */
function useQrCode(url: string): string | null {
  const [image, setImage] = useState<{ url: string; src: string } | null>(null);
  useEffect(() => {
    let active = true;
    QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (svg) => active && setImage({ url, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` }),
      (error: unknown) => logger.warn(`QR code failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return () => {
      active = false;
    };
  }, [url]);
  return image?.url === url ? image.src : null;
}
