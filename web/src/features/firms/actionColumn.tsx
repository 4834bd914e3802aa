//! A firm table's 'Action' column (seat holders' 'Take back', invitations' 'Withdraw'): one small
//! button per row, named for its row, busy while that row's change is on its way.
import { Button } from '../../components/Button';
import type { DataColumn } from '../../components/DataTable';

export interface ActionColumnOptions<T> {
  text: string;
  /** The button's accessible name for a row ('Withdraw the invitation to …'). */
  label: (row: T) => string;
  busy: (row: T) => boolean;
  onClick: (row: T) => void;
}

export function actionColumn<T>({ text, label, busy, onClick }: ActionColumnOptions<T>): DataColumn<T> {
  return {
    key: 'action',
    title: 'Action',
    render: (row) => <Button text={text} size="small" label={label(row)} loading={busy(row)} onClick={() => onClick(row)} />,
  };
}
