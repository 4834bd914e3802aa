//! "Move to…" on a row of the topic tree: the topic goes under another parent (or to the top level)
//! by choosing it in a list, without dragging (WCAG 2.5.7). The save is the topic's ordinary edit,
//! from the topic as the server has it now, with only its parent (and sector) changed.
import { useApolloClient, useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { TreeSelectField } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { showToast } from '../../components/Toaster';
import { formatError } from '../../lib/errors';
import { EditTopicDocument, TopicByIdDocument } from './__generated__/TopicForm.generated';
import { toTopicValues } from './TopicForm';
import { parentOptions, type TopicNode } from './topicTree';
import { useTopicWording } from './wording';

export interface MoveTopicDialogProps {
  topic: TopicNode;
  tree: readonly TopicNode[];
  /** Closed; `moved` after a save. */
  onClose: (moved: boolean) => void;
}

export function MoveTopicDialog({ topic, tree, onClose }: MoveTopicDialogProps) {
  const words = useTopicWording();
  const client = useApolloClient();
  const [editTopic] = useMutation(EditTopicDocument);
  const [parent, setParent] = useState<string | null>(topic.parent ?? null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const move = async () => {
    setSaving(true);
    setFailure(null);
    try {
      const { data } = await client.query({ query: TopicByIdDocument, variables: { id: topic._id }, fetchPolicy: 'network-only' });
      const current = data?.findCategoryById;
      if (!current) throw new Error(`The ${words.one} ${topic.name} no longer exists.`);
      const values = toTopicValues(current);
      const item = { ...values, parent, isFeatured: parent ? false : values.isFeatured, _id: current._id, version: current.version };
      await editTopic({ variables: { item } });
      void showToast({ message: `The ${words.one} ${topic.name} has been moved.`, intent: 'success' });
      onClose(true);
    } catch (error) {
      setFailure(formatError(error));
      setSaving(false);
    }
  };

  return (
    <Dialog
      isOpen
      title={`Move ${topic.name}`}
      onClose={() => onClose(false)}
      footer={
        <>
          <Button text="Cancel" onClick={() => onClose(false)} disabled={saving} />
          <Button text="Move" intent="primary" onClick={() => void move()} loading={saving} disabled={parent === (topic.parent ?? null)} />
        </>
      }
    >
      {failure && (
        <Banner intent="danger" role="alert">
          {failure}
        </Banner>
      )}
      <TreeSelectField
        label={`New parent ${words.one}`}
        noneLabel={`None (top-level ${words.one})`}
        nodes={parentOptions(tree, topic._id)}
        exclude={topic._id}
        name="parent"
        value={parent}
        onChange={setParent}
        onBlur={() => undefined}
      />
    </Dialog>
  );
}
