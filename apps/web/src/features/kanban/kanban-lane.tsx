import type { ReactNode } from 'react';
import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { useDroppable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { cssColor } from '../../lib/colors';
import type { Lane } from './kanban.api';

// The 'open' lane has no tag of its own to take a colour from.
const OPEN_LANE_COLOR = '#607d8b';

const laneColor = (lane: Lane) => (lane.tag ? cssColor(lane.tag.color) : OPEN_LANE_COLOR);

// One column of the board: a header in the lane's colour with its name and count, then its cards.
export const KanbanLane = ({
  lane,
  label,
  count,
  children,
}: {
  lane: Lane;
  label: string;
  count: number;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: lane.key, data: { label } });
  const color = laneColor(lane);
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={label}
      data-testid={`kanban-lane-${lane.key}`}
      sx={{
        width: 300,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
        overflow: 'hidden',
        bgcolor: 'action.hover',
        outline: isOver ? `2px solid ${color}` : 'none',
      }}
    >
      <Stack
        direction="row"
        spacing={1}
        data-testid="kanban-lane-header"
        sx={{
          alignItems: 'center',
          px: 1.5,
          py: 1,
          bgcolor: color,
          color: (theme) => theme.palette.getContrastText(color),
        }}
      >
        <Typography variant="subtitle1" component="h2" noWrap sx={{ flexGrow: 1, fontWeight: 600 }}>
          {label}
        </Typography>
        <Chip
          size="small"
          label={count}
          aria-label={t('kanban.count', { count })}
          sx={{ bgcolor: 'rgba(255, 255, 255, 0.85)', color: 'rgba(0, 0, 0, 0.87)' }}
        />
      </Stack>
      <Stack
        ref={setNodeRef}
        spacing={1}
        sx={{ p: 1, overflowY: 'auto', flexGrow: 1, minHeight: 120 }}
      >
        {children}
        {count === 0 && (
          <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
            {t('kanban.empty')}
          </Box>
        )}
      </Stack>
    </Paper>
  );
};
