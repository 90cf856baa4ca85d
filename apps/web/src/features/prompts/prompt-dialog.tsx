import {
  Autocomplete,
  FormControl,
  FormHelperText,
  FormLabel,
  Slider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PROMPT_MODELS, type PromptInput, type PromptView } from '@atendi/shared';
import { useDialogSave } from '../../components/dialog-save';
import { QueueSelect } from '../../components/queue-fields';
import { registerMui } from '../../lib/forms';
import {
  fieldErrorKey,
  promptFormDefaults,
  promptResolver,
  serverFieldErrors,
  type PromptFormField,
  type PromptFormValues,
} from './prompt-form.schema';
import { applyPromptEventToCache } from '../../api/queries/prompts';
import { createPrompt, updatePrompt, useProviderModels } from './prompts.api';
import { FieldRow } from '../../components/field-row';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { PromptKnowledgeFields } from './prompt-knowledge-fields';

type ModelOption = { name: string; group: 'suggested' | 'provider' };

// PROMPT_MODELS first, then what the company's provider lists that is not among them.
const modelOptions = (providerModels: string[] | undefined): ModelOption[] => {
  const suggested = PROMPT_MODELS.map((name) => ({ name, group: 'suggested' as const }));
  const known = new Set<string>(PROMPT_MODELS);
  const fromProvider = [...new Set(providerModels ?? [])]
    .filter((name) => !known.has(name))
    .sort()
    .map((name) => ({ name, group: 'provider' as const }));
  return [...suggested, ...fromProvider];
};

const PromptForm = ({ prompt }: { prompt: PromptView | null }) => {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const providerModels = useProviderModels();
  const options = modelOptions(providerModels.data?.models);
  const hasProviderModels = options.some((option) => option.group === 'provider');
  const form = useForm<PromptFormValues, unknown, PromptInput>({
    resolver: promptResolver,
    defaultValues: promptFormDefaults(prompt),
  });
  const {
    register,
    control,
    watch,
    formState: { errors },
  } = form;
  // Read on every keystroke, so an error's text follows what the field holds.
  const values = watch();

  const save = useDialogSave(form, {
    save: async (input) => {
      const saved = prompt ? await updatePrompt(prompt.id, input) : await createPrompt(input);
      applyPromptEventToCache(queryClient, {
        action: prompt ? 'update' : 'create',
        prompt: saved,
      });
    },
    savedText: t('prompts.saved'),
    fields: (error) => serverFieldErrors(error, (key) => i18n.exists(key)),
  });
  const { isSubmitting } = save;

  const errorOf = (field: PromptFormField, error: FieldError | undefined, hint?: string) => ({
    error: Boolean(error),
    helperText: error ? t(fieldErrorKey(field, error, values)) : hint,
  });

  return (
    <DialogForm
      title={prompt ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}
      {...save}
      submitLabel={prompt ? t('common.save') : t('prompts.dialog.add')}
    >
      <Stack spacing={2.5}>
        <TextField
          {...registerMui(register, 'name')}
          label={t('prompts.form.name')}
          autoComplete="off"
          autoFocus
          fullWidth
          disabled={isSubmitting}
          {...errorOf('name', errors.name)}
        />
        <TextField
          {...registerMui(register, 'prompt')}
          label={t('prompts.form.prompt')}
          multiline
          minRows={6}
          maxRows={16}
          fullWidth
          disabled={isSubmitting}
          {...errorOf('prompt', errors.prompt, t('prompts.form.promptHint'))}
        />
        <FieldRow>
          <Controller
            name="model"
            control={control}
            render={({ field }) => (
              <Autocomplete
                freeSolo
                fullWidth
                disabled={isSubmitting}
                options={options}
                groupBy={
                  hasProviderModels
                    ? (option) => t(`prompts.form.modelGroups.${option.group}`)
                    : undefined
                }
                getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
                value={field.value}
                inputValue={field.value}
                onInputChange={(_event, value) => field.onChange(value)}
                onChange={(_event, option) =>
                  field.onChange(typeof option === 'string' ? option : (option?.name ?? ''))
                }
                isOptionEqualToValue={(option, value) =>
                  option.name === (typeof value === 'string' ? value : value.name)
                }
                onBlur={field.onBlur}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    inputRef={field.ref}
                    label={t('prompts.form.model')}
                    {...errorOf('model', errors.model, t('prompts.form.modelHint'))}
                  />
                )}
              />
            )}
          />
          <QueueSelect
            control={control}
            name="queueId"
            label={t('prompts.form.queue')}
            noneLabel={t('prompts.form.noQueue')}
            saved={prompt?.queue}
            disabled={isSubmitting}
            {...errorOf('queueId', errors.queueId, t('prompts.form.queueHint'))}
          />
        </FieldRow>
        <TextField
          {...registerMui(register, 'handoffMessage')}
          label={t('prompts.form.handoffMessage')}
          multiline
          minRows={2}
          maxRows={6}
          fullWidth
          disabled={isSubmitting}
          {...errorOf(
            'handoffMessage',
            errors.handoffMessage,
            t('prompts.form.handoffMessageHint'),
          )}
        />
        <PromptKnowledgeFields
          control={control}
          errors={errors}
          mode={values.knowledge}
          saved={prompt?.knowledgeDocuments ?? []}
          disabled={isSubmitting}
        />
        <FieldRow>
          <TextField
            {...registerMui(register, 'maxTokens')}
            label={t('prompts.form.maxTokens')}
            fullWidth
            disabled={isSubmitting}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            {...errorOf('maxTokens', errors.maxTokens, t('prompts.form.maxTokensHint'))}
          />
          <TextField
            {...registerMui(register, 'maxMessages')}
            label={t('prompts.form.maxMessages')}
            fullWidth
            disabled={isSubmitting}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            {...errorOf('maxMessages', errors.maxMessages, t('prompts.form.maxMessagesHint'))}
          />
        </FieldRow>
        <Controller
          name="temperature"
          control={control}
          render={({ field }) => (
            <FormControl fullWidth error={Boolean(errors.temperature)}>
              <Stack
                direction="row"
                sx={{
                  justifyContent: 'space-between',
                }}
              >
                <FormLabel id="prompt-temperature">{t('prompts.form.temperature')}</FormLabel>
                <Typography
                  variant="body2"
                  sx={{
                    color: 'text.secondary',
                  }}
                >
                  {field.value.toFixed(1)}
                </Typography>
              </Stack>
              <Slider
                value={field.value}
                onChange={(_event, value) => field.onChange(value)}
                onBlur={field.onBlur}
                min={0}
                max={1}
                step={0.1}
                marks
                valueLabelDisplay="auto"
                disabled={isSubmitting}
                aria-labelledby="prompt-temperature"
                sx={{ mx: 1, width: 'auto' }}
              />
              <FormHelperText>
                {errors.temperature
                  ? t(fieldErrorKey('temperature', errors.temperature, values))
                  : t('prompts.form.temperatureHint')}
              </FormHelperText>
            </FormControl>
          )}
        />
      </Stack>
    </DialogForm>
  );
};

// The prompt modal (SPEC §2); sessionKey gives every opening a fresh form.
export const PromptDialog = ({
  open,
  prompt,
  sessionKey,
  onClose,
}: {
  open: boolean;
  prompt: PromptView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md">
    <PromptForm prompt={prompt} />
  </DialogFrame>
);
