import { tKey } from '../../i18n/keys';
import type { DocumentStatus } from '../../machines/document-editor.machine';

/** The spec's task status as the coach reads it. */
export const STATUS_LABELS: Record<DocumentStatus, string> = {
  new: tKey('clinical:status.new'),
  sent: tKey('clinical:status.sent'),
  completed: tKey('clinical:status.completed'),
  canceled: tKey('clinical:status.canceled'),
};
