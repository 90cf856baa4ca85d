import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  InputAdornment,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { ScheduleView } from '@atendi/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ScheduleFormDialog } from './schedule-form-dialog';
import { contactLabel, SchedulesCalendar } from './schedules-calendar';
import {
  countOf,
  deleteSchedule,
  schedulesOf,
  useLinkedContact,
  useScheduleList,
  useSchedulesLiveUpdates,
  type ContactChoice,
} from './schedules.api';

type Editor = { open: boolean; schedule: ScheduleView | null; contact: ContactChoice | null };

const contactIdOf = (value: string | null) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
};

// SPEC §2 Schedules: calendar, search, add; the title shows the count. `?contactId=` opens the add
// dialog for that contact. The plan feature useSchedules is checked by the route.
export const SchedulesPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const list = useScheduleList(searchParam);
  useSchedulesLiveUpdates();
  const schedules = schedulesOf(list.data);

  const [editor, setEditor] = useState<Editor>({ open: false, schedule: null, contact: null });
  const [removal, setRemoval] = useState<{ open: boolean; schedule: ScheduleView | null }>({
    open: false,
    schedule: null,
  });

  const linkedContactId = contactIdOf(params.get('contactId'));
  const linkedContact = useLinkedContact(linkedContactId);
  useEffect(() => {
    if (!linkedContactId || !linkedContact.data) return;
    setEditor({ open: true, schedule: null, contact: linkedContact.data });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('contactId');
        return next;
      },
      { replace: true },
    );
  }, [linkedContactId, linkedContact.data, setParams]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['schedules', 'list'] });

  const remove = useMutation({
    mutationFn: (id: number) => deleteSchedule(id),
    onSuccess: () => {
      void refresh();
      toast.success(t('schedules.toasts.deleted'));
      setRemoval((current) => ({ ...current, open: false }));
    },
  });

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{
          alignItems: 'center',
          flexWrap: 'wrap',
          rowGap: 1.5,
        }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('schedules.title', { count: countOf(list.data) })}
        </Typography>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('schedules.search')}
          sx={{ width: { xs: '100%', sm: 260 } }}
          slotProps={{
            htmlInput: { 'aria-label': t('schedules.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setEditor({ open: true, schedule: null, contact: null })}
        >
          {t('schedules.add')}
        </Button>
      </Stack>

      {list.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress size={28} aria-label={t('app.loading')} />
        </Box>
      ) : (
        <>
          {list.isError && (
            <Typography
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('schedules.loadError')}
            </Typography>
          )}
          <SchedulesCalendar
            schedules={schedules}
            onEdit={(schedule) => setEditor({ open: true, schedule, contact: null })}
            onDelete={(schedule) => setRemoval({ open: true, schedule })}
          />
        </>
      )}

      <ScheduleFormDialog
        open={editor.open}
        schedule={editor.schedule}
        contact={editor.contact}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
        onSaved={() => void refresh()}
      />
      <ConfirmDialog
        open={removal.open}
        title={t('schedules.delete.title')}
        message={t('schedules.delete.text', {
          name: removal.schedule ? contactLabel(removal.schedule) : '',
        })}
        confirmLabel={t('schedules.remove')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => removal.schedule && remove.mutate(removal.schedule.id)}
        onClose={() => setRemoval((current) => ({ ...current, open: false }))}
        onExited={() => setRemoval({ open: false, schedule: null })}
      />
    </Stack>
  );
};
