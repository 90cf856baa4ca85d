import { Box, Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AnnouncementPriority } from './announcements.api';

// SPEC §3: 1 high (red), 2 medium (orange), 3 low (grey).
export const priorities: AnnouncementPriority[] = [1, 2, 3];

const chipColor = { 1: 'error', 2: 'warning', 3: 'default' } as const;
const dotColor = { 1: 'error.main', 2: 'warning.main', 3: 'grey.500' } as const;

export const usePriorityLabel = () => {
  const { t } = useTranslation();
  return (priority: AnnouncementPriority) => t(`announcements.priority.${priority}`);
};

export const PriorityChip = ({ priority }: { priority: AnnouncementPriority }) => {
  const label = usePriorityLabel();
  return (
    <Chip
      size="small"
      color={chipColor[priority] ?? 'default'}
      label={label(priority)}
      data-priority={priority}
    />
  );
};

// Decorative beside a visible label; otherwise it names the priority for screen readers.
export const PriorityDot = ({
  priority,
  isDecorative = false,
}: {
  priority: AnnouncementPriority;
  isDecorative?: boolean;
}) => {
  const label = usePriorityLabel();
  return (
    <Box
      component="span"
      {...(isDecorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label(priority) })}
      data-priority={priority}
      sx={{
        display: 'inline-block',
        flexShrink: 0,
        width: 10,
        height: 10,
        borderRadius: '50%',
        bgcolor: dotColor[priority] ?? 'grey.500',
      }}
    />
  );
};
