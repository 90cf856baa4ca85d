import { Box, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can, TAG_DEFAULT_COLOR, type TagView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { cssColor, isCssColor, normalizeColor } from '../../lib/colors';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui, useFieldError } from '../../lib/forms';
import { applyTagEventToCache, createTag, updateTag } from './tags.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// SPEC §5 Tag: name required, at least 3 characters. Messages are i18n keys.
const tagFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(3, 'tags.modal.nameLength')
    .max(50, 'tags.modal.nameLength'),
  color: z.string().trim().refine(isCssColor, 'tags.modal.colorInvalid'),
  kanban: z.boolean(),
});
type TagFormValues = z.infer<typeof tagFormSchema>;

// <input type="color"> takes only #rrggbb.
const pickerValue = (color: string) => {
  const css = cssColor(color);
  if (css.length === 7) return css;
  if (css.length === 4 || css.length === 5)
    return `#${[...css.slice(1, 4)].map((c) => c + c).join('')}`;
  return css.slice(0, 7);
};

const TagForm = ({ tag, onClose }: { tag: TagView | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canToggleKanban = can(me, 'tag-form:kanban');
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TagFormValues>({
    resolver: zodResolver(tagFormSchema),
    defaultValues: {
      name: tag?.name ?? '',
      color: tag?.color || TAG_DEFAULT_COLOR,
      kanban: tag?.kanban === 1,
    },
  });

  const onSubmit = async (values: TagFormValues) => {
    await waitBeforeSubmit();
    // Without the kanban toggle the flag is left out, so the API keeps what it has.
    const payload = {
      name: values.name,
      color: normalizeColor(values.color),
      ...(canToggleKanban ? { kanban: values.kanban ? 1 : 0 } : {}),
    };
    try {
      const saved = tag ? await updateTag(tag.id, payload) : await createTag(payload);
      applyTagEventToCache(queryClient, { action: tag ? 'update' : 'create', tag: saved });
      toast.success(t('tags.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setError('name', { message: 'tags.modal.nameTaken' });
      } else {
        toastError(error);
      }
    }
  };

  const fieldError = useFieldError(errors);

  return (
    <DialogForm
      title={tag ? t('tags.modal.editTitle') : t('tags.modal.addTitle')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      submitLabel={tag ? t('common.save') : t('tags.modal.add')}
    >
      <Stack spacing={2}>
        <TextField
          {...registerMui(register, 'name')}
          label={t('tags.modal.name')}
          autoComplete="off"
          autoFocus
          fullWidth
          {...fieldError('name')}
        />
        <Controller
          name="color"
          control={control}
          render={({ field: { ref, value, onChange, onBlur } }) => (
            <Stack
              direction="row"
              spacing={1}
              sx={{
                alignItems: 'flex-start',
              }}
            >
              <Box
                component="input"
                type="color"
                aria-label={t('tags.modal.colorPicker')}
                value={pickerValue(value)}
                onChange={(event) => onChange(event.currentTarget.value)}
                sx={{ width: 56, height: 40, p: 0, border: 0, bgcolor: 'transparent' }}
              />
              <TextField
                inputRef={ref}
                label={t('tags.modal.color')}
                value={value}
                onChange={(event) => onChange(event.target.value)}
                onBlur={onBlur}
                autoComplete="off"
                fullWidth
                {...fieldError('color')}
              />
            </Stack>
          )}
        />
        {canToggleKanban && (
          <Controller
            name="kanban"
            control={control}
            render={({ field: { value, onChange, ref } }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={value}
                    slotProps={{ input: { ref } }}
                    onChange={(event) => onChange(event.target.checked)}
                  />
                }
                label={t('tags.modal.kanban')}
              />
            )}
          />
        )}
      </Stack>
    </DialogForm>
  );
};

// The add/edit dialog; sessionKey gives every opening a fresh form.
export const TagModal = ({
  open,
  tag,
  sessionKey,
  onClose,
}: {
  open: boolean;
  tag: TagView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="xs">
    <TagForm tag={tag} onClose={onClose} />
  </DialogFrame>
);
