import { useId, useState } from 'react';
import {
  Autocomplete,
  DialogContentText,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TagOption, TicketBulkResult, UserOption } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { useQueues } from '../../api/queries/queues';
import { useTagOptions } from '../../api/queries/tags';
import { useUserOptions } from '../../api/queries/users';
import { errorText } from '../../api/toasts';
import { DialogForm, DialogFrame, DialogView } from '../../components/dialog-frame';
import { QueueField } from './new-ticket-dialog';
import type { BulkChange, BulkOutcome } from './tickets.api';

// The bulk actions' dialogs (issue 36): what a transfer or a tag needs, and what came of the action.
// Loaded when one first opens: the inbox's first load does without them.

type ChoiceDialogProps = {
  open: boolean;
  // Which conversations the action is for ("2 conversaciones seleccionadas").
  scope: string;
  onClose: () => void;
  onSubmit: (change: BulkChange) => void;
};

// SPEC §4 Transfer, for many: to a person each stays open as theirs (in the queue chosen, or its
// own); to nobody each waits in the queue chosen.
const TransferForm = ({ scope, onSubmit }: Pick<ChoiceDialogProps, 'scope' | 'onSubmit'>) => {
  const { t } = useTranslation();
  const users = useUserOptions();
  const queues = useQueues();
  const [target, setTarget] = useState<UserOption | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const canSubmit = target !== null || queueId !== '';
  return (
    <DialogForm
      title={t('tickets.bulk.transfer.title')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!canSubmit) return;
        onSubmit({
          action: 'transfer',
          ...(target ? { userId: target.id } : {}),
          ...(queueId === '' ? {} : { queueId }),
        });
      }}
      isSubmitting={false}
      submitDisabled={!canSubmit}
      submitLabel={t('tickets.bulk.transfer.submit')}
    >
      <Stack spacing={2}>
        <DialogContentText>{scope}</DialogContentText>
        <Autocomplete
          options={users.data ?? []}
          value={target}
          onChange={(_event, next) => setTarget(next)}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
          loading={users.isFetching}
          loadingText={t('app.loading')}
          noOptionsText={t('tickets.transfer.noUsers')}
          renderInput={(params) => (
            <TextField
              {...params}
              autoFocus
              label={t('tickets.transfer.user')}
              helperText={
                target
                  ? t('tickets.bulk.transfer.toUserHint')
                  : t('tickets.bulk.transfer.toQueueHint')
              }
            />
          )}
        />
        <QueueField
          queues={queues.data ?? []}
          value={queueId}
          onChange={setQueueId}
          isLoading={queues.isPending}
          isRequired={false}
          emptyLabel={
            target ? t('tickets.bulk.transfer.keepQueue') : t('tickets.bulk.transfer.chooseQueue')
          }
        />
      </Stack>
    </DialogForm>
  );
};

export const BulkTransferDialog = ({ open, onClose, ...form }: ChoiceDialogProps) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <TransferForm {...form} />}
  </DialogFrame>
);

// SPEC §7 Tags on tickets, for many: the tag is added to each, its other tags stay.
const TagForm = ({ scope, onSubmit }: Pick<ChoiceDialogProps, 'scope' | 'onSubmit'>) => {
  const { t } = useTranslation();
  const tags = useTagOptions();
  const [tag, setTag] = useState<TagOption | null>(null);
  return (
    <DialogForm
      title={t('tickets.bulk.tag.title')}
      onSubmit={(event) => {
        event.preventDefault();
        if (tag) onSubmit({ action: 'tag', tagId: tag.id });
      }}
      isSubmitting={false}
      submitDisabled={!tag}
      submitLabel={t('tickets.bulk.tag.submit')}
    >
      <Stack spacing={2}>
        <DialogContentText>{scope}</DialogContentText>
        <Autocomplete
          options={tags.data ?? []}
          value={tag}
          onChange={(_event, next) => setTag(next)}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
          loading={tags.isFetching}
          loadingText={t('app.loading')}
          noOptionsText={t('tickets.search.noTags')}
          renderInput={(params) => (
            <TextField {...params} autoFocus label={t('tickets.bulk.tag.label')} />
          )}
        />
      </Stack>
    </DialogForm>
  );
};

export const BulkTagDialog = ({ open, onClose, ...form }: ChoiceDialogProps) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <TagForm {...form} />}
  </DialogFrame>
);

type Result = TicketBulkResult['results'][number];

// SPEC §8: the translated text of the refusal's code when the app has one, else the API's message.
const reasonOf = (result: Result) =>
  errorText(new ApiError({ status: 0, code: result.error, message: result.message ?? '' }));

const ResultView = ({ outcome: { result, names } }: { outcome: BulkOutcome }) => {
  const { t } = useTranslation();
  const failures = result.results.filter((item) => !item.ok);
  const failedTitleId = useId();
  return (
    <DialogView title={t('tickets.bulk.result.title')}>
      <Stack spacing={1}>
        <Typography>
          {t('tickets.bulk.result.done', { succeeded: result.succeeded, count: result.total })}
        </Typography>
        {failures.length > 0 && (
          <>
            <Typography id={failedTitleId} variant="subtitle2" component="h3">
              {t('tickets.bulk.result.failed', { count: failures.length })}
            </Typography>
            <List dense disablePadding aria-labelledby={failedTitleId}>
              {failures.map((item) => (
                <ListItem key={item.id} disableGutters>
                  <ListItemText
                    primary={names.get(item.id) ?? `#${item.id}`}
                    secondary={reasonOf(item)}
                  />
                </ListItem>
              ))}
            </List>
          </>
        )}
      </Stack>
    </DialogView>
  );
};

// The outcome stays while the dialog fades out.
export const BulkResultDialog = ({
  open,
  outcome,
  onClose,
}: {
  open: boolean;
  outcome: BulkOutcome | null;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {outcome && <ResultView outcome={outcome} />}
  </DialogFrame>
);
