//! A contributor's photo (GET /contributor-profile-picture/{id}): the endpoint needs the bearer
//! token, so it is shown through lib/useAuthenticatedImage. Used by the staff user form and the
//! reader pages.
import { useAuthenticatedImage } from './useAuthenticatedImage';

export const PROFILE_PICTURE_ENDPOINT = '/contributor-profile-picture';

export function profilePictureUrl(userId: string): string {
  return `${PROFILE_PICTURE_ENDPOINT}/${encodeURIComponent(userId)}`;
}

/** The user's stored photo as an object URL: null while it loads, when `enabled` is false, or when it fails. */
export function useProfilePicture(userId: string, enabled: boolean): string | null {
  return useAuthenticatedImage(enabled ? profilePictureUrl(userId) : null, 'Contributor photo').url;
}
