import { Autocomplete, MenuItem, Stack, TextField } from '@mui/material';
import { Controller, type Control, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PROMPT_KNOWLEDGE, type PromptInput, type PromptView } from '@atendi/shared';
import { useKnowledgeDocuments } from '../../api/queries/knowledge';
import type { PromptFormValues } from './prompt-form.schema';

type DocumentRef = { id: number; name: string };

type FieldProps = {
  control: Control<PromptFormValues, unknown, PromptInput>;
  errors: FieldErrors<PromptFormValues>;
  saved: PromptView['knowledgeDocuments'];
  disabled: boolean;
};

// The documents chosen, from the company's knowledge base (read only when choosing).
const DocumentsField = ({ control, errors, saved, disabled }: FieldProps) => {
  const { t } = useTranslation();
  const documents = useKnowledgeDocuments();
  const options: DocumentRef[] =
    documents.data?.documents.map(({ id, name }) => ({ id, name })) ?? [];
  // Until the list arrives, the saved documents still show by name.
  const known = new Map([...saved, ...options].map((d) => [d.id, d]));
  return (
    <Controller
      name="knowledgeDocumentIds"
      control={control}
      render={({ field }) => (
        <Autocomplete
          multiple
          fullWidth
          disabled={disabled}
          loading={documents.isLoading}
          options={options}
          value={field.value.flatMap((id) => known.get(id) ?? [])}
          onChange={(_event, chosen) => field.onChange(chosen.map((d) => d.id))}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          noOptionsText={t('prompts.form.noKnowledgeDocuments')}
          onBlur={field.onBlur}
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={field.ref}
              label={t('prompts.form.knowledgeDocuments')}
              error={Boolean(errors.knowledgeDocumentIds)}
              helperText={
                errors.knowledgeDocumentIds
                  ? t('prompts.validation.knowledgeDocuments')
                  : t('prompts.form.knowledgeDocumentsHint')
              }
            />
          )}
        />
      )}
    />
  );
};

// Issue 40: what the agent answers from: nothing but its instructions, every document of the
// knowledge base, or the documents chosen here (by name; a document deleted since is gone from the
// list, and an agent left with none finds nothing).
export const PromptKnowledgeFields = ({
  mode,
  ...props
}: FieldProps & { mode: PromptFormValues['knowledge'] }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Controller
        name="knowledge"
        control={props.control}
        render={({ field }) => (
          <TextField
            select
            fullWidth
            label={t('prompts.form.knowledge')}
            value={field.value}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            disabled={props.disabled}
            helperText={t(`prompts.form.knowledgeHints.${field.value}`)}
          >
            {PROMPT_KNOWLEDGE.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`prompts.form.knowledgeModes.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {mode === 'selected' && <DocumentsField {...props} />}
    </Stack>
  );
};
