//! Links into the audit trail (issue 40) from the records' own screens.

export const AUDIT_PATH = '/publisher/audit';

/** One record's trail: the audit trail screen filtered to it. */
export function auditOfRecordPath(entityType: string, entityId: string): string {
  return `${AUDIT_PATH}?${new URLSearchParams({ entityType, entityId })}`;
}
