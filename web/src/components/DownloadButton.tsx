//! A button that downloads a protected file (a CSV export) with the signed-in user's token: busy
//! while the file comes, and a toast saying why when it does not (lib/downloadCsv).
import { useState } from 'react';
import { useAccessToken } from '../lib/auth';
import { downloadProtectedFile } from '../lib/downloadCsv';
import { logger } from '../lib/logger';
import { Button, type IconName } from './Button';
import { showToast } from './Toaster';

export interface DownloadButtonProps {
  text: string;
  /** The server path, with its query. */
  url: string;
  /** The file's name when the server gives none. */
  fileName: string;
  /** The start of the failure toast: '{failureText}: {the server's message}'. */
  failureText: string;
  icon?: IconName;
  disabled?: boolean;
}

export function DownloadButton({ text, url, fileName, failureText, icon = 'download', disabled }: DownloadButtonProps) {
  const token = useAccessToken();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadProtectedFile(url, await token(), fileName);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn(`${failureText}: ${message}`);
      void showToast({ message: `${failureText}: ${message}`, intent: 'danger' });
    } finally {
      setBusy(false);
    }
  };
  return <Button text={text} icon={icon} loading={busy} disabled={disabled} onClick={() => void download()} />;
}
