import { useState, type ReactNode } from 'react';
import { Avatar, Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can, type TicketStatus, type TicketView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { lazyDialog } from '../../lib/lazy-component';
import { useHasSchedules } from './scheduled-messages';
import { initialOf } from './ticket-format';
import { useDeleteTicket, useTicketViewer, useUpdateTicketStatus } from './tickets.api';
import { useIsTyping } from './typing';

const TransferDialog = lazyDialog(() =>
  import('./transfer-dialog').then((module) => module.TransferDialog),
);
const ScheduleDialog = lazyDialog(() =>
  import('./schedule-dialog').then((module) => module.ScheduleDialog),
);

// A labelled button, or on a narrow screen an icon with the label as its name and tooltip.
const ActionButton = ({
  label,
  icon,
  isCompact,
  isPrimary = false,
  disabled,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  isCompact: boolean;
  isPrimary?: boolean;
  disabled: boolean;
  onClick: () => void;
}) =>
  isCompact ? (
    <Tooltip title={label}>
      {/* The span keeps the tooltip working while the button is disabled. */}
      <span>
        <IconButton aria-label={label} color="primary" disabled={disabled} onClick={onClick}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  ) : (
    <Button
      size="small"
      variant={isPrimary ? 'contained' : 'outlined'}
      startIcon={icon}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </Button>
  );

// The chat's title bar with the status actions of SPEC §4. Narrow screens get a way back to the list.
export const TicketChatHeader = ({
  ticket,
  isNarrow,
  onAccepted,
}: {
  ticket: TicketView;
  isNarrow: boolean;
  onAccepted: (ticket: TicketView) => void;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useCurrentSession();
  const viewer = useTicketViewer();
  const updateStatus = useUpdateTicketStatus();
  const remove = useDeleteTicket();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const [isTransferring, setIsTransferring] = useState(false);
  const [isScheduling, setIsScheduling] = useState(false);
  const hasSchedules = useHasSchedules();
  const isTyping = useIsTyping(ticket.id);
  // Someone else's conversation is theirs; only those who see every ticket may act on it.
  const canAct = ticket.userId === null || ticket.userId === viewer.userId || viewer.seesAll;
  const canDelete = can(user, 'ticket-options:deleteTicket');
  const isBusy = updateStatus.isPending || remove.isPending;

  const changeStatus = (status: TicketStatus) =>
    updateStatus.mutate(
      { ticket, status },
      {
        onSuccess: (updated) => {
          if (ticket.status === 'pending') onAccepted(updated);
          // A returned ticket is no longer the agent's: back to the list. A resolved one stays in
          // view, so a resolve by mistake is one click from being reopened.
          else if (status === 'pending') navigate('/tickets');
        },
      },
    );

  const deleteTicket = () =>
    remove.mutate(ticket, {
      onSuccess: () => {
        toast.success(t('tickets.deleted'));
        navigate('/tickets');
      },
      onSettled: () => setIsConfirmingDelete(false),
    });

  const details = [
    ticket.contact.number,
    ticket.queue?.name,
    ticket.user && ticket.status !== 'pending'
      ? t('tickets.servedBy', { name: ticket.user.name })
      : null,
  ].filter(Boolean);

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
        px: isNarrow ? 1 : 1.5,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        flexShrink: 0,
      }}
    >
      {isNarrow && (
        <IconButton
          aria-label={t('tickets.back')}
          onClick={() => navigate('/tickets')}
          edge="start"
        >
          <ArrowBackIcon />
        </IconButton>
      )}
      <Avatar src={ticket.contact.urlPicture || ticket.contact.profilePicUrl || undefined} alt="">
        {initialOf(ticket.contact.name)}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h2" noWrap sx={{ fontWeight: 600 }}>
          {ticket.contact.name || ticket.contact.number}
        </Typography>
        {/* SPEC §4 Typing indicator: it takes the details' place while the contact writes. */}
        {isTyping ? (
          <Typography
            variant="caption"
            noWrap
            component="p"
            role="status"
            sx={{
              color: 'success.main',
              fontStyle: 'italic',
            }}
          >
            {t('tickets.typing')}
          </Typography>
        ) : (
          <Typography
            variant="caption"
            noWrap
            component="p"
            sx={{
              color: 'text.secondary',
            }}
          >
            {details.join(' · ')}
          </Typography>
        )}
      </Box>
      <Stack
        direction="row"
        spacing={isNarrow ? 0 : 1}
        sx={{
          alignItems: 'center',
          flexShrink: 0,
        }}
      >
        {ticket.status === 'pending' && (
          <Button
            size="small"
            variant="contained"
            disabled={isBusy}
            onClick={() => changeStatus('open')}
          >
            {t('tickets.actions.accept')}
          </Button>
        )}
        {ticket.status === 'open' && canAct && (
          <>
            <ActionButton
              label={t('tickets.actions.return')}
              icon={<UndoIcon />}
              isCompact={isNarrow}
              disabled={isBusy}
              onClick={() => changeStatus('pending')}
            />
            <ActionButton
              label={t('tickets.actions.transfer')}
              icon={<SwapHorizIcon />}
              // An icon, like delete: three labelled buttons crowd the header beside the list.
              isCompact
              disabled={isBusy}
              onClick={() => setIsTransferring(true)}
            />
            <ActionButton
              label={t('tickets.actions.resolve')}
              icon={<CheckCircleOutlineIcon />}
              isCompact={isNarrow}
              isPrimary
              disabled={isBusy}
              onClick={() => changeStatus('closed')}
            />
          </>
        )}
        {ticket.status === 'closed' && (
          <ActionButton
            label={t('tickets.actions.reopen')}
            icon={<ReplayIcon />}
            isCompact={isNarrow}
            disabled={isBusy}
            onClick={() => changeStatus('open')}
          />
        )}
        {/* SPEC §2 options menu: schedule a message to this contact, whatever the ticket's state. */}
        {hasSchedules && (
          <ActionButton
            label={t('tickets.actions.schedule')}
            icon={<ScheduleSendIcon />}
            isCompact
            disabled={false}
            onClick={() => setIsScheduling(true)}
          />
        )}
        {canDelete && (
          <Tooltip title={t('tickets.actions.delete')}>
            {/* The span keeps the tooltip working while the button is disabled. */}
            <span>
              <IconButton
                aria-label={t('tickets.actions.deleteTicket')}
                disabled={isBusy}
                onClick={() => setIsConfirmingDelete(true)}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Stack>
      <TransferDialog
        open={isTransferring}
        ticket={ticket}
        onClose={() => setIsTransferring(false)}
      />
      <ScheduleDialog
        open={isScheduling}
        contact={ticket.contact}
        onClose={() => setIsScheduling(false)}
      />
      <ConfirmDialog
        open={isConfirmingDelete}
        title={t('tickets.deleteTitle')}
        message={t('tickets.deleteText', { name: ticket.contact.name })}
        confirmLabel={t('tickets.actions.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={deleteTicket}
        onClose={() => setIsConfirmingDelete(false)}
      />
    </Stack>
  );
};
