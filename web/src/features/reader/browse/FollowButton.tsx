//! Follow or unfollow a topic (spec 3 §4 'Category follow': follow toggles to unfollow after a
//! confirmation). The answer updates the topic in the cache, so the button and count follow it.
import { gql } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { Button } from '../../../components/Button';
import { showToast } from '../../../components/Toaster';
import { formatError } from '../../../lib/errors';
import { FollowTopicDocument } from './__generated__/FollowButton.generated';

export interface FollowButtonProps {
  topic: { _id: string; name: string; isFollowing: boolean };
}

export function FollowButton({ topic }: FollowButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const [follow, { loading }] = useMutation(FollowTopicDocument, {
    update(cache, { data }) {
      const result = data?.followEntity;
      if (!result) return;
      cache.modify({
        id: cache.identify({ __typename: 'Category', _id: result.entityId }),
        fields: {
          isFollowing: () => result.isFollowing,
          subscribersCount: () => result.subscribersCount,
        },
      });
    },
  });

  const change = async (isAdd: boolean) => {
    try {
      await follow({ variables: { item: { entityId: topic._id, entityType: 'Category', isAdd } } });
      void showToast({
        message: isAdd ? `You are now following ${topic.name}.` : `You no longer follow ${topic.name}.`,
        intent: 'success',
      });
    } catch (error) {
      void showToast({ message: formatError(error), intent: 'danger' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      {topic.isFollowing ? (
        <Button text="Unfollow" icon="tick" variant="outlined" loading={loading && !confirming} onClick={() => setConfirming(true)} />
      ) : (
        <Button text="Follow" icon="plus" intent="primary" loading={loading} onClick={() => void change(true)} />
      )}
      <ConfirmDialog
        isOpen={confirming}
        title={`Unfollow ${topic.name}?`}
        icon="disable"
        confirmText="Unfollow"
        intent="primary"
        loading={loading}
        onConfirm={() => void change(false)}
        onCancel={() => setConfirming(false)}
      >
        <p>Its articles will no longer be picked for your For you page. You can follow it again at any time.</p>
      </ConfirmDialog>
    </>
  );
}

export const FOLLOW_TOPIC_MUTATION = gql`
  mutation FollowTopic($item: FollowInput!) {
    followEntity(item: $item) {
      entityId
      isFollowing
      subscribersCount
    }
  }
`;
