import { FormControlLabel, Stack, Switch } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can, TAG_DEFAULT_COLOR, type TagView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { useDialogSave } from '../../components/dialog-save';
import { isCssColor, normalizeColor } from '../../lib/colors';
import { useFieldError } from '../../lib/forms';
import { FormText } from '../../components/form-text';
import { applyTagEventToCache, createTag, updateTag } from './tags.api';
import { ColorField } from '../../components/color-field';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// SPEC §5 Tag: name required, at least 3 characters. Messages are i18n keys.
const tagFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(3, 'tags.modal.nameLength')
    .max(50, 'tags.modal.nameLength'),
  // The API takes #rgb, #rrggbb and #rrggbbaa (not #rgba).
  color: z
    .string()
    .trim()
    .refine(
      (color) => isCssColor(color) && normalizeColor(color).length !== 5,
      'tags.modal.colorInvalid',
    ),
  kanban: z.boolean(),
});
type TagFormValues = z.infer<typeof tagFormSchema>;

const TagForm = ({ tag }: { tag: TagView | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canToggleKanban = can(me, 'tag-form:kanban');
  const form = useForm<TagFormValues>({
    resolver: zodResolver(tagFormSchema),
    defaultValues: {
      name: tag?.name ?? '',
      color: tag?.color || TAG_DEFAULT_COLOR,
      kanban: tag?.kanban === 1,
    },
  });
  const { control } = form;

  const save = useDialogSave(form, {
    save: async (values) => {
      // Without the kanban toggle the flag is left out, so the API keeps what it has.
      const payload = {
        name: values.name,
        color: normalizeColor(values.color),
        ...(canToggleKanban ? { kanban: values.kanban ? 1 : 0 } : {}),
      };
      const saved = tag ? await updateTag(tag.id, payload) : await createTag(payload);
      applyTagEventToCache(queryClient, { action: tag ? 'update' : 'create', tag: saved });
    },
    savedText: t('tags.saved'),
    // The API's 409 is a name already in use.
    fields: (error) => (error.status === 409 ? [['name', 'tags.modal.nameTaken']] : []),
  });

  const fieldError = useFieldError(form.formState.errors);

  return (
    <DialogForm
      title={tag ? t('tags.modal.editTitle') : t('tags.modal.addTitle')}
      {...save}
      submitLabel={tag ? t('common.save') : t('tags.modal.add')}
    >
      <Stack spacing={2}>
        <FormText form={form} name="name" label={t('tags.modal.name')} autoFocus />
        <Controller
          name="color"
          control={control}
          render={({ field: { ref, value, onChange, onBlur } }) => (
            <ColorField
              label={t('tags.modal.color')}
              value={value}
              onChange={onChange}
              onBlur={onBlur}
              inputRef={ref}
              error={fieldError('color').helperText}
            />
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
    <TagForm tag={tag} />
  </DialogFrame>
);
