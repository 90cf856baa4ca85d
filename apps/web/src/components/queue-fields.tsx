import {
  Box,
  Checkbox,
  Chip,
  CircularProgress,
  ListItemText,
  MenuItem,
  TextField,
  type TextFieldProps,
} from '@mui/material';
import {
  Controller,
  type Control,
  type FieldPathByValue,
  type FieldValues,
  type Path,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useQueues } from '../api/queries/queues';
import { cssColor } from '../lib/colors';
import { SelectField } from './select-field';

type QueueRef = { id: number; name: string; color: string };

// A queue's colour beside its name in a list.
const QueueDot = ({ color }: { color: string }) => (
  <Box
    component="span"
    sx={{
      width: 12,
      height: 12,
      borderRadius: '50%',
      bgcolor: cssColor(color),
      mr: 1,
      flexShrink: 0,
    }}
  />
);

// The company's queues by id, the record's own first: its chips show while the list loads.
const useQueuesById = (saved: readonly QueueRef[]) => {
  const queues = useQueues();
  const byId = new Map<number, QueueRef>();
  saved.forEach((queue) => byId.set(queue.id, queue));
  queues.data?.forEach((queue) => byId.set(queue.id, queue));
  return { queues, byId };
};

// The queues of a connection or a user: several, each a chip in its colour.
export const QueuesField = <T extends FieldValues, Sent extends FieldValues>({
  control,
  name,
  label,
  hint,
  noQueuesText,
  saved,
  disabled,
}: {
  control: Control<T, unknown, Sent>;
  name: FieldPathByValue<T, number[]>;
  label: string;
  hint?: string;
  // Said instead of the hint when the company has no queue yet.
  noQueuesText: string;
  // The queues the record has (named even before the list loads).
  saved: readonly QueueRef[];
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  const { queues, byId } = useQueuesById(saved);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, value, onChange, ...field } }) => (
        <TextField
          {...field}
          inputRef={ref}
          select
          label={label}
          fullWidth
          disabled={disabled}
          value={value}
          onChange={(event) => onChange(event.target.value as unknown as number[])}
          helperText={queues.isSuccess && queues.data.length === 0 ? noQueuesText : hint}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (selected) => (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {(selected as number[]).map((id) => {
                    const queue = byId.get(id);
                    if (!queue) return null;
                    const color = cssColor(queue.color);
                    return (
                      <Chip
                        key={id}
                        size="small"
                        label={queue.name}
                        sx={{
                          bgcolor: color,
                          color: (theme) => theme.palette.getContrastText(color),
                        }}
                      />
                    );
                  })}
                </Box>
              ),
            },
          }}
        >
          {queues.isPending && (
            <MenuItem disabled>
              <CircularProgress size={18} sx={{ mr: 1 }} />
              {t('app.loading')}
            </MenuItem>
          )}
          {(queues.data ?? []).map((queue) => (
            <MenuItem key={queue.id} value={queue.id}>
              <Checkbox size="small" checked={(value as number[]).includes(queue.id)} />
              <QueueDot color={queue.color} />
              <ListItemText primary={queue.name} />
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
};

// One queue or none (''), the value being the id as text: where a connection transfers waiting
// tickets, an AI agent's queue.
export const QueueSelect = <T extends FieldValues, Sent extends FieldValues>({
  control,
  name,
  label,
  noneLabel,
  saved,
  ...props
}: Pick<TextFieldProps, 'helperText' | 'error' | 'disabled'> & {
  control: Control<T, unknown, Sent>;
  name: Path<T>;
  label: string;
  noneLabel: string;
  // The record's queue: choosable while the list loads.
  saved?: QueueRef | null;
}) => {
  const choices = useQueues().data ?? [];
  const options =
    saved && !choices.some((queue) => queue.id === saved.id) ? [...choices, saved] : choices;
  return (
    <SelectField
      control={control}
      name={name}
      label={label}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      {...props}
    >
      <MenuItem value="">{noneLabel}</MenuItem>
      {options.map((queue) => (
        <MenuItem key={queue.id} value={String(queue.id)}>
          <QueueDot color={queue.color} />
          {queue.name}
        </MenuItem>
      ))}
    </SelectField>
  );
};
