import { useState } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TicketView } from '@atendi/shared';
import { LoadingBox } from '../../components/loading-box';
import { DraggedCard, KanbanCard } from './kanban-card';
import { KanbanLane } from './kanban-lane';
import { laneOf, useKanbanBoard, type Lane } from './kanban.api';

// A click on a card's buttons is not a drag: the pointer must travel a little first.
const DRAG_DISTANCE_PX = 5;

const nameOf = (data: unknown) =>
  (data as { ticket?: TicketView } | undefined)?.ticket?.contact.name;
const labelOf = (data: unknown) => (data as { label?: string } | undefined)?.label ?? '';

// What a screen reader hears while a card is dragged with the keyboard, in the page's language.
const announcementsOf = (t: TFunction): Announcements => ({
  onDragStart: ({ active }) => t('kanban.dnd.start', { name: nameOf(active.data.current) }),
  onDragOver: ({ active, over }) =>
    over
      ? t('kanban.dnd.over', {
          name: nameOf(active.data.current),
          lane: labelOf(over.data.current),
        })
      : t('kanban.dnd.outside', { name: nameOf(active.data.current) }),
  onDragEnd: ({ active, over }) =>
    over
      ? t('kanban.dnd.end', { name: nameOf(active.data.current), lane: labelOf(over.data.current) })
      : t('kanban.dnd.cancel', { name: nameOf(active.data.current) }),
  onDragCancel: ({ active }) => t('kanban.dnd.cancel', { name: nameOf(active.data.current) }),
});

const BoardError = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack
        spacing={2}
        sx={{
          alignItems: 'flex-start',
        }}
      >
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('kanban.loadError')}
        </Typography>
        <Button
          variant="outlined"
          onClick={() => void queryClient.refetchQueries({ queryKey: ['kanban'], type: 'active' })}
        >
          {t('kanban.retry')}
        </Button>
      </Stack>
    </Paper>
  );
};

// SPEC §2 Kanban: a lane 'open' for tickets without a kanban tag, then one lane per kanban tag in its
// colour. Dropping a card on a lane (or choosing it in "Mover a…") retags the ticket (SPEC §4).
export const KanbanPage = () => {
  const { t } = useTranslation();
  const board = useKanbanBoard();
  const [dragged, setDragged] = useState<TicketView | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: DRAG_DISTANCE_PX } }),
    useSensor(KeyboardSensor),
  );
  const laneLabel = (lane: Lane) => lane.tag?.name ?? t('kanban.openLane');
  const cardsOf = (lane: Lane) =>
    board.tickets.filter((ticket) => laneOf(ticket, board.lanes) === lane.key);

  const onDragStart = ({ active }: DragStartEvent) =>
    setDragged((active.data.current as { ticket: TicketView }).ticket);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const ticket = board.tickets.find((row) => row.id === active.id);
    const target = board.lanes.find((lane) => lane.key === over?.id);
    if (ticket && target && laneOf(ticket, board.lanes) !== target.key)
      void board.move(ticket, target);
  };

  return (
    <Stack spacing={2} sx={{ height: { xs: 'calc(100dvh - 88px)', md: 'calc(100dvh - 112px)' } }}>
      <Typography variant="h5" component="h1">
        {t('kanban.title')}
      </Typography>
      {board.isPending && <LoadingBox />}
      {!board.isPending && board.isError && <BoardError />}
      {!board.isPending && !board.isError && board.lanes.every((lane) => !lane.tag) && (
        // Only the open lane: the board's columns come from tags, and none is on the board yet.
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/tags" color="inherit" size="small">
              {t('kanban.toTags')}
            </Button>
          }
        >
          {t('kanban.noTagLanes')}
        </Alert>
      )}
      {!board.isPending && !board.isError && (
        <DndContext
          sensors={sensors}
          accessibility={{
            announcements: announcementsOf(t),
            screenReaderInstructions: { draggable: t('kanban.dnd.instructions') },
          }}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragged(null)}
        >
          <Box
            data-testid="kanban-board"
            sx={{ display: 'flex', gap: 2, overflowX: 'auto', flexGrow: 1, minHeight: 0, pb: 1 }}
          >
            {board.lanes.map((lane) => {
              const cards = cardsOf(lane);
              return (
                <KanbanLane key={lane.key} lane={lane} label={laneLabel(lane)} count={cards.length}>
                  {cards.map((ticket) => (
                    <KanbanCard
                      key={ticket.id}
                      ticket={ticket}
                      lanes={board.lanes}
                      laneKey={lane.key}
                      laneLabel={laneLabel}
                      isMoving={board.moving.has(ticket.id)}
                      onMove={(target) => void board.move(ticket, target)}
                    />
                  ))}
                </KanbanLane>
              );
            })}
          </Box>
          <DragOverlay>{dragged && <DraggedCard ticket={dragged} />}</DragOverlay>
        </DndContext>
      )}
    </Stack>
  );
};
