import { Chip, Tooltip } from '@mui/material';
import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { useNow } from '../../lib/use-now';

const MINUTE_MS = 60_000;

// "12 min", "3 h 05", "2 d 4 h": a span of time as a list row has room for.
const formatSpan = (ms: number) => {
  const minutes = Math.max(0, Math.floor(ms / MINUTE_MS));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')}`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
};

// The nearest SLA deadline of a conversation: time left (amber in its last 15 minutes),
// or how long ago it was breached (red).
export const SlaChip = ({ ticket }: { ticket: TicketView }) => {
  const { t } = useTranslation();
  const now = useNow();
  if (!ticket.slaDueAt || !ticket.slaKind || ticket.status === 'closed') return null;
  const left = Date.parse(ticket.slaDueAt) - now;
  const kind = t(`tickets.sla.kinds.${ticket.slaKind}`);
  const breached = left <= 0;
  const label = breached
    ? t('tickets.sla.breached', { span: formatSpan(-left) })
    : t('tickets.sla.left', { span: formatSpan(left) });
  const color = breached ? 'error' : left <= 15 * MINUTE_MS ? 'warning' : 'default';
  return (
    <Tooltip title={t(breached ? 'tickets.sla.breachedHint' : 'tickets.sla.leftHint', { kind })}>
      <Chip
        size="small"
        variant={breached ? 'filled' : 'outlined'}
        color={color}
        icon={<TimerOutlinedIcon />}
        label={label}
        aria-label={`${kind}: ${label}`}
      />
    </Tooltip>
  );
};
