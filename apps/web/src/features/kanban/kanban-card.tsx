import { useState, type ReactNode } from 'react';
import {
  Avatar,
  Box,
  Button,
  IconButton,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useDraggable } from '@dnd-kit/core';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { stripWhatsappFormat } from '../../lib/whatsapp-format';
import type { Lane, LaneKey } from './kanban.api';

type MoveProps = { lanes: Lane[]; laneKey: LaneKey; laneLabel: (lane: Lane) => string };

// "Mover a…": every other lane, for those who do not drag (keyboard, touch, tests).
const MoveMenu = ({
  lanes,
  laneKey,
  laneLabel,
  isDisabled,
  onMove,
}: MoveProps & { isDisabled: boolean; onMove: (lane: Lane) => void }) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('kanban.moveTo')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('kanban.moveTo')}
            aria-haspopup="menu"
            disabled={isDisabled}
            onClick={(event) => setAnchor(event.currentTarget)}
          >
            <MoreVertIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {lanes
          .filter((lane) => lane.key !== laneKey)
          .map((lane) => (
            <MenuItem
              key={lane.key}
              onClick={() => {
                setAnchor(null);
                onMove(lane);
              }}
            >
              {laneLabel(lane)}
            </MenuItem>
          ))}
      </Menu>
    </>
  );
};

// What a card shows (SPEC §2 Kanban): the contact's name and number, the last message on one line,
// and the way into the conversation.
const CardBody = ({
  ticket,
  handle,
  actions,
}: {
  ticket: TicketView;
  handle?: ReactNode;
  actions?: ReactNode;
}) => {
  const { t } = useTranslation();
  const { contact } = ticket;
  const preview = stripWhatsappFormat(ticket.lastMessage);
  return (
    <Stack spacing={1}>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
        }}
      >
        {handle}
        <Avatar
          src={contact.urlPicture || contact.profilePicUrl || undefined}
          alt=""
          sx={{ width: 32, height: 32 }}
        />
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography variant="subtitle2" noWrap>
            {contact.name}
          </Typography>
          <Typography
            variant="caption"
            noWrap
            component="p"
            sx={{
              color: 'text.secondary',
            }}
          >
            {contact.number}
          </Typography>
        </Box>
        {actions}
      </Stack>
      <Typography
        variant="body2"
        noWrap
        title={preview}
        sx={{
          color: 'text.secondary',
        }}
      >
        {preview || t('kanban.noMessage')}
      </Typography>
      <Button
        size="small"
        variant="outlined"
        component={RouterLink}
        to={`/tickets/${ticket.uuid}`}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('kanban.openTicket')}
      </Button>
    </Stack>
  );
};

const cardSx = { p: 1.5, bgcolor: 'background.paper' } as const;

// A card drags from anywhere with the pointer; the keyboard picks it up from its handle, so the
// buttons inside keep their own Enter and space.
export const KanbanCard = ({
  ticket,
  isMoving,
  onMove,
  ...moveProps
}: MoveProps & { ticket: TicketView; isMoving: boolean; onMove: (lane: Lane) => void }) => {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: ticket.id,
    data: { ticket, laneKey: moveProps.laneKey },
    disabled: isMoving,
  });
  return (
    <Paper
      ref={setNodeRef}
      component="article"
      variant="outlined"
      aria-label={ticket.contact.name}
      aria-busy={isMoving}
      data-testid={`kanban-card-${ticket.id}`}
      {...listeners}
      sx={{ ...cardSx, opacity: isDragging || isMoving ? 0.5 : 1, touchAction: 'manipulation' }}
    >
      <CardBody
        ticket={ticket}
        handle={
          <Box
            ref={setActivatorNodeRef}
            {...attributes}
            aria-label={t('kanban.dragHandle', { name: ticket.contact.name })}
            sx={{ display: 'flex', cursor: 'grab', color: 'text.disabled', borderRadius: 1 }}
          >
            <DragIndicatorIcon fontSize="small" />
          </Box>
        }
        actions={<MoveMenu {...moveProps} isDisabled={isMoving} onMove={onMove} />}
      />
    </Paper>
  );
};

// The card under the pointer while dragging, drawn above the scrolling lanes.
export const DraggedCard = ({ ticket }: { ticket: TicketView }) => (
  <Paper variant="outlined" sx={{ ...cardSx, width: 280, boxShadow: 6, cursor: 'grabbing' }}>
    <CardBody ticket={ticket} />
  </Paper>
);
