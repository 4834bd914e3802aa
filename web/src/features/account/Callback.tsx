//! /callback: completes the OpenID Connect sign-in, tells the server about the user
//! (`updateUserFromToken`), then opens the page the user wanted (spec 3 §7, spec 1 §8).
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LoadingScreen } from '../../components/LoadingScreen';
import { browser } from '../../lib/browser';
import { ErrorResponse, useAuth, type SignInState } from '../../lib/auth';
import { useConfig } from '../../lib/config';
import { formatError } from '../../lib/errors';
import { AuthErrorPage } from './AuthErrorPage';
import { UpdateUserFromTokenDocument } from './__generated__/Callback.generated';

const ARTICLE_PAGE = /^\/browse\/(?:marketing-)?article\//;

/**
 * Where to go after sign-in: the page the user asked for, else the app root (which picks the
 * role's landing page). A new reader has no channel subscriptions yet and goes to For You
 * unless they came for an article (spec 1 §2 "Redirects"); this is not applied to staff, whose
 * landing page is the publisher area.
 */
export function afterSignInPath(returnTo: string | undefined, isNewUser: boolean, role: string | null | undefined): string {
  const target = returnTo && returnTo.startsWith('/') && !returnTo.startsWith('/callback') ? returnTo : '/';
  if (isNewUser && role === 'Subscriber' && !ARTICLE_PAGE.test(target)) return '/for-you';
  return target;
}

export default function Callback() {
  const auth = useAuth();
  const config = useConfig();
  const navigate = useNavigate();
  const [updateUser] = useMutation(UpdateUserFromTokenDocument);
  const [failure, setFailure] = useState<{ title?: string; message: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // The sign-in response can be used once: guard against StrictMode's second effect run.
    if (started.current) return;
    started.current = true;
    const leaveToLanding = () => browser.assign(config.landingUrl);

    void (async () => {
      let user;
      try {
        user = await auth.completeSignIn();
      } catch (error) {
        if (error instanceof ErrorResponse && error.error) {
          // The identity provider refused the sign-in: say why.
          setFailure({ message: error.error_description || error.error });
        } else {
          // No token, so no user id (spec 1 §8): back to the landing page.
          leaveToLanding();
        }
        return;
      }
      if (!user.profile?.sub) {
        leaveToLanding();
        return;
      }
      try {
        const { data } = await updateUser({ variables: { idToken: user.id_token ?? '' } });
        const result = data?.updateUserFromToken;
        const returnTo = (user.state as SignInState | undefined)?.returnTo;
        navigate(afterSignInPath(returnTo, !!result?.isNewUser, result?.user.role), { replace: true });
      } catch (error) {
        setFailure({ message: formatError(error) });
      }
    })();
  }, [auth, config.landingUrl, navigate, updateUser]);

  if (failure)
    return <AuthErrorPage title={failure.title} message={failure.message} onLogout={auth.user ? () => void auth.signOut() : undefined} />;
  return <LoadingScreen label="Signing you in" />;
}

export const UPDATE_USER_FROM_TOKEN = gql`
  mutation UpdateUserFromToken($idToken: String!) {
    updateUserFromToken(idToken: $idToken) {
      isNewUser
      user {
        _id
        name
        email
        role
        trialState
        trialMinLeft
      }
    }
  }
`;
