//! The regulatory disclaimer for institutional clients with a contact-the-desk block (spec 2 §1,
//! spec 3 §2), shown under every article unless its channel hides it (hideDisclaimer).
import { useId } from 'react';

export function Disclaimer({ deskEmail }: { deskEmail?: string | null }) {
  const titleId = useId();
  return (
    <section className="insights-article-disclaimer" aria-labelledby={titleId}>
      <h2 id={titleId}>Important information for institutional clients</h2>
      <p>
        This material is intended for institutional and professional clients only and is provided for information purposes. It is not
        investment advice, nor an offer or a solicitation to buy or sell any financial instrument. The views expressed are those of the
        authors at the date of publication and may change without notice. Past performance is not a reliable indicator of future results.
      </p>
      {deskEmail && (
        <p className="insights-article-desk-contact">
          Questions about this article? Contact the desk at <a href={`mailto:${deskEmail}`}>{deskEmail}</a>.
        </p>
      )}
    </section>
  );
}
