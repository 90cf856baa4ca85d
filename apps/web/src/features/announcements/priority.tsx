import { Box, Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AnnouncementPriority } from './announcements.api';

// SPEC §3: 1 high (red), 2 medium (orange), 3 low (grey).
export const priorities: AnnouncementPriority[] = [1, 2, 3];

// The API answers any stored integer (only writes are checked to 1-3): outside values clamp.
export const toPriority = (priority: number): AnnouncementPriority =>
  priority <= 1 ? 1 : priority >= 3 ? 3 : 2;

const chipColor = { 1: 'error', 2: 'warning', 3: 'default' } as const;
const dotColor = { 1: 'error.main', 2: 'warning.main', 3: 'grey.500' } as const;

export const usePriorityLabel = () => {
  const { t } = useTranslation();
  return (priority: AnnouncementPriority) => t(`announcements.priority.${priority}`);
};

export const PriorityChip = ({ priority: value }: { priority: number }) => {
  const label = usePriorityLabel();
  const priority = toPriority(value);
  return (
    <Chip
      size="small"
      color={chipColor[priority]}
      label={label(priority)}
      data-priority={priority}
    />
  );
};

// Decorative beside a visible label; otherwise it names the priority for screen readers.
export const PriorityDot = ({
  priority: value,
  isDecorative = false,
}: {
  priority: number;
  isDecorative?: boolean;
}) => {
  const label = usePriorityLabel();
  const priority = toPriority(value);
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
        bgcolor: dotColor[priority],
      }}
    />
  );
};
