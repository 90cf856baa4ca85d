import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ScheduleInput, ScheduleView } from '@atendi/shared';
import { ScheduleMessageDialog, type ContactPickerProps } from '../../components/schedule-form';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import {
  createSchedule,
  updateSchedule,
  useContactSearch,
  type ContactChoice,
} from './schedules.api';

// SPEC §5: contact searches start at 3 typed characters.
const MIN_CONTACT_SEARCH = 3;

const contactText = (contact: ContactChoice) =>
  contact.number ? `${contact.name} - ${contact.number}` : contact.name;

// The contact, searched by what the user types.
const ContactPicker = ({
  value,
  onChange,
  inputRef,
  label,
  required,
  error,
  helperText,
}: ContactPickerProps) => {
  const { t } = useTranslation();
  const [contactInput, setContactInput] = useState('');
  const typed = useDebouncedValue(contactInput.trim());
  const term = typed.length >= MIN_CONTACT_SEARCH ? typed : '';
  const found = useContactSearch(term);
  const isShort = contactInput.trim().length < MIN_CONTACT_SEARCH;

  return (
    <Autocomplete
      options={term ? (found.data?.contacts ?? []) : []}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={contactInput}
      onInputChange={(_event, next) => setContactInput(next)}
      // The API already filtered by the typed text.
      filterOptions={(options) => options}
      getOptionLabel={contactText}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      loading={found.isFetching}
      loadingText={t('app.loading')}
      noOptionsText={t(isShort ? 'schedules.dialog.typeMore' : 'schedules.dialog.noContacts')}
      renderInput={(params) => (
        <TextField
          {...params}
          required={required}
          label={label}
          inputRef={inputRef}
          error={error}
          helperText={helperText}
        />
      )}
    />
  );
};

// SPEC §2 Modals: schedule. Adds one (optionally for a given contact) or edits the one given.
export const ScheduleFormDialog = ({
  open,
  schedule,
  contact = null,
  onClose,
  onSaved,
}: {
  open: boolean;
  schedule: ScheduleView | null;
  contact?: ContactChoice | null;
  onClose: () => void;
  onSaved: (schedule: ScheduleView) => void;
}) => {
  const { t } = useTranslation();

  const save = async (input: ScheduleInput) => {
    onSaved(schedule ? await updateSchedule(schedule.id, input) : await createSchedule(input));
  };

  return (
    <ScheduleMessageDialog
      open={open}
      title={t(schedule ? 'schedules.dialog.editTitle' : 'schedules.dialog.addTitle')}
      submitLabel={t(schedule ? 'schedules.dialog.save' : 'schedules.dialog.add')}
      pastMessage="schedules.validation.past"
      contact={schedule?.contact ?? contact}
      initial={schedule ?? undefined}
      pickContact={(props) => <ContactPicker {...props} />}
      markRequired
      save={save}
      savedText={t('schedules.toasts.saved')}
      onClose={onClose}
    />
  );
};
