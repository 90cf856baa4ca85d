import { useState } from 'react';
import { Box, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  isUpcomingSchedule,
  schedulesContract,
  type ScheduleEvent,
  type ScheduleInput,
  type ScheduleView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { WhatsappText } from '../../components/whatsapp-text';
import { formatDate } from '../../lib/dates';
import { formatTime } from './ticket-format';

// The contact's scheduled messages in the chat (SPEC §4: only those whose send time is still ahead),
// and the calls the schedule dialog makes.

const schedulesKeys = {
  ofContact: (contactId: number) => ['tickets', 'schedules', contactId] as const,
};

// Newest send time first: a contact's upcoming schedules are the first page.
const fetchContactSchedules = async (contactId: number) =>
  (await call(schedulesContract.listSchedules, { query: { contactId, schedulePageNumber: 1 } }))
    .schedules;

export const createSchedule = (input: ScheduleInput) =>
  call(schedulesContract.createSchedule, { body: input });

const deleteSchedule = (id: number) => call(schedulesContract.deleteSchedule, { params: { id } });

// The plan decides whether schedules exist at all (SPEC §6).
export const useHasSchedules = () => Boolean(useCurrentSession().user.company?.plan?.useSchedules);

// Puts a saved schedule in its contact's list (and out of any other), or takes a deleted one out.
export const applyScheduleEvent = (queryClient: QueryClient, event: ScheduleEvent) => {
  queryClient.setQueriesData<ScheduleView[]>({ queryKey: ['tickets', 'schedules'] }, (current) =>
    current?.filter(
      (s) => s.id !== (event.action === 'delete' ? event.scheduleId : event.schedule.id),
    ),
  );
  if (event.action === 'delete') return;
  queryClient.setQueryData<ScheduleView[]>(
    schedulesKeys.ofContact(event.schedule.contactId),
    (current) => (current ? [...current, event.schedule] : current),
  );
};

const bySendAt = (a: ScheduleView, b: ScheduleView) =>
  new Date(a.sendAt).getTime() - new Date(b.sendAt).getTime() || a.id - b.id;

const ScheduledBubble = ({
  schedule,
  onDelete,
}: {
  schedule: ScheduleView;
  onDelete: (schedule: ScheduleView) => void;
}) => {
  const { t } = useTranslation();
  const when = `${formatDate(schedule.sendAt)} ${formatTime(schedule.sendAt)}`;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', my: 0.5 }}>
      <Paper
        variant="outlined"
        data-testid={`schedule-${schedule.id}`}
        sx={{
          maxWidth: '75%',
          px: 1.5,
          py: 1,
          borderStyle: 'dashed',
          borderColor: 'primary.main',
          bgcolor: 'background.paper',
          opacity: 0.9,
        }}
      >
        <Stack
          direction="row"
          spacing={0.5}
          sx={{
            alignItems: 'center',
          }}
        >
          <ScheduleIcon fontSize="small" color="primary" aria-hidden />
          <Typography variant="caption" color="primary" sx={{ flex: 1, fontWeight: 600 }}>
            {t('tickets.schedules.scheduledFor', { date: when })}
          </Typography>
          <Tooltip title={t('tickets.schedules.delete')}>
            <IconButton
              size="small"
              aria-label={t('tickets.schedules.delete')}
              onClick={() => onDelete(schedule)}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          <WhatsappText text={schedule.body} />
        </Typography>
        {schedule.mediaName && (
          <Typography
            variant="caption"
            sx={{
              color: 'text.secondary',
            }}
          >
            {schedule.mediaName}
          </Typography>
        )}
      </Paper>
    </Box>
  );
};

// After the conversation's messages: what will be sent to this contact, soonest first.
export const ScheduledMessages = ({ contactId }: { contactId: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const hasSchedules = useHasSchedules();
  const [toDelete, setToDelete] = useState<ScheduleView | null>(null);
  const { data } = useQuery({
    queryKey: schedulesKeys.ofContact(contactId),
    queryFn: () => fetchContactSchedules(contactId),
    enabled: hasSchedules,
    // A chat opens fine without its schedules; they are an extra.
    meta: { silent: true },
  });
  useCompanyEvent<ScheduleEvent>('schedule', (event) => {
    if (event?.action) applyScheduleEvent(queryClient, event);
  });
  const remove = useMutation({
    mutationFn: (schedule: ScheduleView) => deleteSchedule(schedule.id),
    onSuccess: (_result, schedule) => {
      applyScheduleEvent(queryClient, { action: 'delete', scheduleId: schedule.id });
      toast.success(t('tickets.schedules.deleted'));
    },
    onSettled: () => setToDelete(null),
  });

  const upcoming = (data ?? []).filter((s) => isUpcomingSchedule(s)).sort(bySendAt);
  if (!hasSchedules) return null;
  return (
    <Box component="section" aria-label={t('tickets.schedules.listLabel')}>
      {upcoming.map((schedule) => (
        <ScheduledBubble key={schedule.id} schedule={schedule} onDelete={setToDelete} />
      ))}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('tickets.schedules.deleteTitle')}
        message={t('tickets.schedules.deleteText')}
        confirmLabel={t('tickets.schedules.confirmDelete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
};
