//! A contributor's photo (spec 3 §7 REST: GET /contributor-profile-picture/{id} with the bearer
//! token), fetched as a blob and shown through an object URL; their initials while it loads, when
//! they have none, or when it fails (the fetch is lib/profilePicture's, as on the staff user form).
import { useProfilePicture } from '../../../lib/profilePicture';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

export interface ContributorPhotoProps {
  contributor: { _id: string; name: string; hasProfilePicture: boolean };
  /** Width and height in px. */
  size?: number;
}

export function ContributorPhoto({ contributor, size = 48 }: ContributorPhotoProps) {
  const url = useProfilePicture(contributor._id, contributor.hasProfilePicture);
  const style = { width: size, height: size };
  if (url) return <img className="insights-contributor-photo" src={url} alt={`Photo of ${contributor.name}`} style={style} />;
  return (
    <span className="insights-contributor-photo insights-contributor-initials" aria-hidden style={{ ...style, fontSize: size / 2.6 }}>
      {initials(contributor.name)}
    </span>
  );
}
