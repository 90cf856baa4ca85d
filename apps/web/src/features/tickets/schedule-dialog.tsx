import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContactView, ScheduleInput } from '@atendi/shared';
import { ScheduleMessageDialog } from '../../components/schedule-form';
import { applyScheduleEvent, createSchedule } from './scheduled-messages';

// SPEC §2 Modals: schedule, opened from the chat for the ticket's contact (POST /schedules).
export const ScheduleDialog = ({
  open,
  contact,
  onClose,
}: {
  open: boolean;
  contact: ContactView;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const save = async (input: ScheduleInput) => {
    const schedule = await createSchedule(input);
    // It shows in the chat at once, before any live event.
    applyScheduleEvent(queryClient, { action: 'create', schedule });
  };

  return (
    <ScheduleMessageDialog
      open={open}
      title={t('tickets.schedules.title')}
      submitLabel={t('tickets.schedules.submit')}
      pastMessage="tickets.schedules.validation.past"
      contact={contact}
      save={save}
      savedText={t('tickets.schedules.saved')}
      onClose={onClose}
    />
  );
};
