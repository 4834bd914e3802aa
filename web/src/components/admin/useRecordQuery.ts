//! The edit screens' load of one record by id: always fresh from the server when the screen opens,
//! and kept on screen afterwards. Apollo refetches a query whose cached result loses a field (say,
//! when a list query writes the same record); without the previous data the form would unmount and
//! lose what the user typed, or an open dialog.
import type { OperationVariables, TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';

export function useRecordQuery<TData, TVariables extends OperationVariables & { id: string }>(
  document: TypedDocumentNode<TData, TVariables>,
  id: string | undefined,
) {
  const variables = { id: id ?? '' } as TVariables;
  const result = useQuery(document, { variables, skip: !id, fetchPolicy: 'network-only' } as useQuery.Options<TData, TVariables>);
  return { data: result.data ?? result.previousData, loading: result.loading, error: result.error };
}
