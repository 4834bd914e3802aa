//! An email shown as a description (a user picker's suggestion), cut by the shared rule
//! (lib/email: 30 characters, in at most 220 px). The tooltip has the whole address, and screen
//! readers read the whole address instead of the cut one.
import { truncateEmail } from '../lib/email';
import './EmailDescription.css';

export function EmailDescription({ email }: { email: string }) {
  const shown = truncateEmail(email);
  return (
    <span className="insights-email-description" title={email}>
      {shown === email ? (
        email
      ) : (
        <>
          <span aria-hidden="true">{shown}</span>
          <span className="insights-visually-hidden">{email}</span>
        </>
      )}
    </span>
  );
}
