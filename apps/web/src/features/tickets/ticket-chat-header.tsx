import { useState, type ReactNode } from 'react';
import {
  Avatar,
  Box,
  Button,
  Drawer,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  MenuList,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can, type TicketStatus, type TicketView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { lazyDialog } from '../../lib/lazy-component';
import { useFormatPhone } from '../../lib/phone';
import { useSummariseTicket } from './contact-drawer.api';
import { useHasSchedules } from './scheduled-messages';
import { initialOf } from './ticket-format';
import {
  downloadTicketTranscript,
  useDeleteTicket,
  useTicketViewer,
  useUpdateTicketStatus,
  type TranscriptFormat,
} from './tickets.api';
import { useIsTyping } from './typing';

const TransferDialog = lazyDialog(() =>
  import('./transfer-dialog').then((module) => module.TransferDialog),
);
const ScheduleDialog = lazyDialog(() =>
  import('./schedule-dialog').then((module) => module.ScheduleDialog),
);

// How much room the header's actions have: labelled buttons, icons, or (on a phone, or beside the
// contact drawer) the main action as an icon and the rest under "more".
export type HeaderDensity = 'labels' | 'icons' | 'menu';

type HeaderAction = {
  key: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled: boolean;
  // The action the header is for (accept, resolve, reopen): always in sight.
  isMain?: boolean;
  // An icon even where labels fit: three labelled buttons crowd the header beside the list.
  prefersIcon?: boolean;
  // Only ever under "more" (the transcript downloads), whatever room there is.
  isMenuOnly?: boolean;
  tooltip?: string;
};

const ActionButton = ({ action, isIcon }: { action: HeaderAction; isIcon: boolean }) =>
  isIcon ? (
    <Tooltip title={action.tooltip ?? action.label}>
      {/* The span keeps the tooltip working while the button is disabled. */}
      <span>
        <IconButton
          aria-label={action.label}
          color={action.key === 'delete' ? 'default' : 'primary'}
          disabled={action.disabled}
          onClick={action.onClick}
        >
          {action.icon}
        </IconButton>
      </span>
    </Tooltip>
  ) : (
    <Button
      size="small"
      variant={action.isMain ? 'contained' : 'outlined'}
      startIcon={action.icon}
      disabled={action.disabled}
      onClick={action.onClick}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {action.label}
    </Button>
  );

// The actions that do not fit: a menu under the button, or on a phone a sheet from the bottom of the
// screen, where the thumb is (the button sits in the top corner, the farthest a thumb reaches).
const MoreActions = ({ actions, isSheet }: { actions: HeaderAction[]; isSheet: boolean }) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (actions.length === 0) return null;
  const close = () => setAnchor(null);
  const items = actions.map((action) => (
    <MenuItem
      key={action.key}
      disabled={action.disabled}
      onClick={() => {
        close();
        action.onClick();
      }}
    >
      <ListItemIcon>{action.icon}</ListItemIcon>
      <ListItemText>{action.label}</ListItemText>
    </MenuItem>
  ));
  return (
    <>
      <Tooltip title={t('tickets.actions.more')}>
        <IconButton
          aria-label={t('tickets.actions.more')}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <MoreVertIcon />
        </IconButton>
      </Tooltip>
      {isSheet ? (
        <Drawer
          anchor="bottom"
          open={anchor !== null}
          onClose={close}
          // A dialog's layer, above the app bar, as the contact drawer.
          sx={{ zIndex: (theme) => theme.zIndex.modal }}
          slotProps={{
            paper: {
              sx: {
                borderTopLeftRadius: 16,
                borderTopRightRadius: 16,
                pb: 'env(safe-area-inset-bottom)',
              },
            },
          }}
        >
          <MenuList autoFocusItem aria-label={t('tickets.actions.more')} sx={{ py: 1 }}>
            {items}
          </MenuList>
        </Drawer>
      ) : (
        <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
          {items}
        </Menu>
      )}
    </>
  );
};

// The chat's title bar with the status actions of SPEC §4 and the contact drawer's button. Narrow
// screens get a way back to the list.
export const TicketChatHeader = ({
  ticket,
  isNarrow,
  density,
  isContactOpen,
  onContactToggle,
  onAccepted,
}: {
  ticket: TicketView;
  isNarrow: boolean;
  density: HeaderDensity;
  isContactOpen: boolean;
  onContactToggle: () => void;
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
  const formatPhone = useFormatPhone();
  // Someone else's conversation is theirs; only those who see every ticket may act on it.
  const canAct = ticket.userId === null || ticket.userId === viewer.userId || viewer.seesAll;
  const canDelete = can(user, 'ticket-options:deleteTicket');
  const isBusy = updateStatus.isPending || remove.isPending;
  const [downloading, setDownloading] = useState<TranscriptFormat | null>(null);
  // Issue 40: the model summarises the conversation as a note, where the plan has AI.
  const canSummarise = Boolean(user.company?.plan?.useOpenAi);
  const summarise = useSummariseTicket(ticket.id);

  // Issue 38: anyone who can open the ticket takes its transcript away.
  const downloadTranscript = async (format: TranscriptFormat) => {
    setDownloading(format);
    try {
      await downloadTicketTranscript(ticket.id, format);
    } catch (error) {
      toastError(error);
    } finally {
      setDownloading(null);
    }
  };

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
    formatPhone(ticket.contact.number, ticket.contact.isGroup),
    ticket.queue?.name,
    ticket.user && ticket.status !== 'pending'
      ? t('tickets.servedBy', { name: ticket.user.name })
      : null,
  ].filter(Boolean);

  const actions: HeaderAction[] = [
    ...(ticket.status === 'open' && canAct
      ? [
          {
            key: 'return',
            label: t('tickets.actions.return'),
            icon: <UndoIcon />,
            disabled: isBusy,
            onClick: () => changeStatus('pending'),
          },
          {
            key: 'transfer',
            label: t('tickets.actions.transfer'),
            icon: <SwapHorizIcon />,
            prefersIcon: true,
            disabled: isBusy,
            onClick: () => setIsTransferring(true),
          },
          {
            key: 'resolve',
            label: t('tickets.actions.resolve'),
            icon: <CheckCircleOutlineIcon />,
            isMain: true,
            disabled: isBusy,
            onClick: () => changeStatus('closed'),
          },
        ]
      : []),
    ...(ticket.status === 'closed'
      ? [
          {
            key: 'reopen',
            label: t('tickets.actions.reopen'),
            icon: <ReplayIcon />,
            isMain: true,
            disabled: isBusy,
            onClick: () => changeStatus('open'),
          },
        ]
      : []),
    // SPEC §2 options menu: schedule a message to this contact, whatever the ticket's state.
    ...(hasSchedules
      ? [
          {
            key: 'schedule',
            label: t('tickets.actions.schedule'),
            icon: <ScheduleSendIcon />,
            prefersIcon: true,
            disabled: false,
            onClick: () => setIsScheduling(true),
          },
        ]
      : []),
    ...(canSummarise
      ? [
          {
            key: 'summarise',
            label: t('tickets.actions.summarise'),
            icon: <AutoAwesomeIcon />,
            isMenuOnly: true,
            disabled: summarise.isPending,
            onClick: () =>
              summarise.mutate(undefined, {
                onSuccess: () => toast.success(t('tickets.actions.summarised')),
              }),
          },
        ]
      : []),
    {
      key: 'transcriptPdf',
      label: t('tickets.actions.transcriptPdf'),
      icon: <PictureAsPdfOutlinedIcon />,
      isMenuOnly: true,
      disabled: downloading !== null,
      onClick: () => void downloadTranscript('pdf'),
    },
    {
      key: 'transcriptJson',
      label: t('tickets.actions.transcriptJson'),
      icon: <DescriptionOutlinedIcon />,
      isMenuOnly: true,
      disabled: downloading !== null,
      onClick: () => void downloadTranscript('json'),
    },
    ...(canDelete
      ? [
          {
            key: 'delete',
            label: t('tickets.actions.deleteTicket'),
            tooltip: t('tickets.actions.delete'),
            icon: <DeleteOutlineIcon />,
            prefersIcon: true,
            disabled: isBusy,
            onClick: () => setIsConfirmingDelete(true),
          },
        ]
      : []),
  ];
  // Where room is short the main action stays in sight (as an icon) and the rest go under "more";
  // a pending ticket's labelled "Aceptar" is its main action. The downloads are always under "more".
  const inSight = actions.filter(
    (action) => action.isMenuOnly !== true && (density !== 'menu' || action.isMain === true),
  );
  const inMenu = actions.filter((action) => !inSight.includes(action));

  return (
    <Stack
      component="header"
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
        spacing={density === 'labels' ? 1 : 0}
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
        {inSight.map((action) => (
          <ActionButton
            key={action.key}
            action={action}
            isIcon={density !== 'labels' || action.prefersIcon === true}
          />
        ))}
        <MoreActions actions={inMenu} isSheet={isNarrow} />
        <Tooltip title={t('tickets.contactDrawer.open')}>
          <IconButton
            aria-label={t('tickets.contactDrawer.open')}
            aria-expanded={isContactOpen}
            onClick={onContactToggle}
          >
            <InfoOutlinedIcon />
          </IconButton>
        </Tooltip>
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
