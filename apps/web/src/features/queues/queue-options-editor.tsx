import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SubdirectoryArrowRightIcon from '@mui/icons-material/SubdirectoryArrowRight';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toastError } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui, useFieldError } from '../../lib/forms';
import { queueKeys, TOP_LEVEL, useQueueOptions } from '../../api/queries/queues';
import {
  createQueueOption,
  deleteQueueOption,
  updateQueueOption,
  type QueueOption,
} from './queues.api';

const optionFormSchema = z.object({
  option: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(20, 'queues.options.validation.position'),
  title: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(200, 'queues.options.validation.title'),
  message: z.string().max(5000, 'queues.validation.tooLong'),
});
type OptionFormValues = z.infer<typeof optionFormSchema>;

// The next free position among siblings: one past the highest number used.
const nextPosition = (siblings: QueueOption[]) => {
  const numbers = siblings.map((sibling) => Number(sibling.option)).filter(Number.isInteger);
  return String(numbers.length ? Math.max(...numbers) + 1 : siblings.length + 1);
};

const OptionForm = ({
  queueId,
  parentId,
  option,
  defaultPosition,
  onDone,
}: {
  queueId: number;
  parentId: number;
  option: QueueOption | null;
  defaultPosition: string;
  onDone: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<OptionFormValues>({
    resolver: zodResolver(optionFormSchema),
    defaultValues: {
      option: option?.option ?? defaultPosition,
      title: option?.title ?? '',
      message: option?.message ?? '',
    },
  });

  const onSubmit = async (values: OptionFormValues) => {
    await waitBeforeSubmit();
    try {
      if (option) await updateQueueOption(option.id, values);
      else
        await createQueueOption({
          queueId,
          parentId: parentId === TOP_LEVEL ? null : parentId,
          ...values,
        });
      await queryClient.invalidateQueries({ queryKey: queueKeys.optionLevel(queueId, parentId) });
      toast.success(t('queues.options.saved'));
      onDone();
    } catch (error) {
      toastError(error);
    }
  };

  const fieldError = useFieldError(errors);

  return (
    <Paper
      component="form"
      noValidate
      onSubmit={handleSubmit(onSubmit)}
      variant="outlined"
      aria-label={option ? t('queues.options.editTitle') : t('queues.options.addTitle')}
      sx={{ p: 2, bgcolor: 'action.hover' }}
    >
      <Stack spacing={1.5}>
        <Typography variant="subtitle2">
          {option ? t('queues.options.editTitle') : t('queues.options.addTitle')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            {...registerMui(register, 'option')}
            label={t('queues.options.position')}
            size="small"
            sx={{ width: { sm: 120 }, flexShrink: 0 }}
            {...fieldError('option')}
          />
          <TextField
            {...registerMui(register, 'title')}
            label={t('queues.options.title')}
            size="small"
            autoFocus
            fullWidth
            {...fieldError('title')}
          />
        </Stack>
        <TextField
          {...registerMui(register, 'message')}
          label={t('queues.options.message')}
          size="small"
          multiline
          minRows={2}
          maxRows={6}
          fullWidth
          {...fieldError('message')}
        />
        <Stack
          direction="row"
          spacing={1}
          sx={{
            justifyContent: 'flex-end',
          }}
        >
          <Button size="small" onClick={onDone} disabled={isSubmitting}>
            {t('common.cancel')}
          </Button>
          <Button
            size="small"
            variant="contained"
            type="submit"
            disabled={isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={14} color="inherit" /> : undefined}
          >
            {t('queues.options.save')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
};

const OptionItem = ({ option }: { option: QueueOption }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isExpanded, setExpanded] = useState(false);
  const [isEditing, setEditing] = useState(false);
  const [isAddingChild, setAddingChild] = useState(false);
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);
  const parentId = option.parentId ?? TOP_LEVEL;

  const remove = useMutation({
    mutationFn: () => deleteQueueOption(option.id),
    onSuccess: async () => {
      // Children go with their parent, so every level of this queue is read again.
      await queryClient.invalidateQueries({ queryKey: queueKeys.options(option.queueId) });
      toast.success(t('queues.options.deleted'));
    },
    onSettled: () => setConfirmingDelete(false),
  });

  return (
    <Paper variant="outlined" sx={{ p: 1 }} data-testid="queue-option">
      {isEditing ? (
        <OptionForm
          queueId={option.queueId}
          parentId={parentId}
          option={option}
          defaultPosition={option.option}
          onDone={() => setEditing(false)}
        />
      ) : (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'flex-start',
          }}
        >
          <Tooltip title={isExpanded ? t('queues.options.collapse') : t('queues.options.expand')}>
            <IconButton
              size="small"
              aria-expanded={isExpanded}
              aria-label={t(isExpanded ? 'queues.options.collapseOf' : 'queues.options.expandOf', {
                title: option.title,
              })}
              onClick={() => setExpanded(!isExpanded)}
            >
              {isExpanded ? <ExpandMoreIcon /> : <ChevronRightIcon />}
            </IconButton>
          </Tooltip>
          <Chip
            label={option.option}
            size="small"
            color="primary"
            variant="outlined"
            sx={{ mt: 0.5, minWidth: 36 }}
          />
          <Box sx={{ flexGrow: 1, minWidth: 0, pt: 0.5 }}>
            <Typography sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
              {option.title}
            </Typography>
            {option.message && (
              <Typography
                variant="body2"
                sx={{
                  color: 'text.secondary',
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-word',
                }}
              >
                {option.message}
              </Typography>
            )}
          </Box>
          <Stack direction="row" sx={{ flexShrink: 0 }}>
            <Tooltip title={t('queues.options.addChild')}>
              <IconButton
                size="small"
                aria-label={t('queues.options.addChildOf', { title: option.title })}
                onClick={() => {
                  setExpanded(true);
                  setAddingChild(true);
                }}
              >
                <SubdirectoryArrowRightIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('queues.options.edit')}>
              <IconButton
                size="small"
                aria-label={t('queues.options.editOf', { title: option.title })}
                onClick={() => setEditing(true)}
              >
                <EditOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('queues.options.delete')}>
              <IconButton
                size="small"
                aria-label={t('queues.options.deleteOf', { title: option.title })}
                onClick={() => setConfirmingDelete(true)}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        </Stack>
      )}
      {isExpanded && (
        <Box sx={{ ml: 2, pl: 2, mt: 1, borderLeft: 2, borderColor: 'divider' }}>
          <OptionLevel
            queueId={option.queueId}
            parentId={option.id}
            isAdding={isAddingChild}
            onAddingChange={setAddingChild}
          />
        </Box>
      )}
      <ConfirmDialog
        open={isConfirmingDelete}
        title={t('queues.options.deleteTitle', { title: option.title })}
        message={t('queues.options.deleteText')}
        confirmLabel={t('queues.options.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirmingDelete(false)}
      />
    </Paper>
  );
};

// One level of the tree: GET /queue-options?queueId&parentId, read when the level is shown.
const OptionLevel = ({
  queueId,
  parentId,
  isAdding,
  onAddingChange,
}: {
  queueId: number;
  parentId: number;
  isAdding: boolean;
  onAddingChange: (isAdding: boolean) => void;
}) => {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQueueOptions(queueId, parentId);
  const options = data ?? [];
  const isTop = parentId === TOP_LEVEL;

  if (isPending) return <CircularProgress size={20} aria-label={t('app.loading')} />;
  if (isError) return <Alert severity="error">{t('queues.options.loadFailed')}</Alert>;

  return (
    <Stack spacing={1}>
      {options.length === 0 && !isAdding && (
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {isTop ? t('queues.options.empty') : t('queues.options.noChildren')}
        </Typography>
      )}
      {options.map((option) => (
        <OptionItem key={option.id} option={option} />
      ))}
      {isAdding ? (
        <OptionForm
          queueId={queueId}
          parentId={parentId}
          option={null}
          defaultPosition={nextPosition(options)}
          onDone={() => onAddingChange(false)}
        />
      ) : (
        <Box>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => onAddingChange(true)}
            variant={isTop ? 'outlined' : 'text'}
          >
            {isTop ? t('queues.options.add') : t('queues.options.addChild')}
          </Button>
        </Box>
      )}
    </Stack>
  );
};

// The chatbot option tree of a saved queue (SPEC §2 Queues; §3 Queue option).
export const QueueOptionsEditor = ({ queueId }: { queueId: number }) => {
  const { t } = useTranslation();
  const [isAdding, setAdding] = useState(false);
  return (
    <Stack spacing={2}>
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('queues.options.intro')}
      </Typography>
      <OptionLevel
        queueId={queueId}
        parentId={TOP_LEVEL}
        isAdding={isAdding}
        onAddingChange={setAdding}
      />
    </Stack>
  );
};
