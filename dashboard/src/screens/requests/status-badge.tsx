// A request's status as a badge whose words do not rely on its colour.
import { Badge } from '../../ui/components.tsx';
import { type RequestStatus, STATUS_LABEL, STATUS_TONE } from './words.ts';

export function StatusBadge({ status }: { status: RequestStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}
