import { useState, type ChangeEvent } from 'react';
import {
  Box,
  Button,
  FormHelperText,
  IconButton,
  LinearProgress,
  Link,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FILE_LIST_MAX_OPTIONS, type FileListView } from '@atendi/shared';
import { useDialogSave } from '../../components/dialog-save';
import { registerMui } from '../../lib/forms';
import { FormText } from '../../components/form-text';
import {
  ACCEPTED_EXTENSIONS,
  baseName,
  currentFileName,
  emptyOption,
  fileListFormSchema,
  toFormValues,
  type FileListFormValues,
  type OptionFormValues,
} from './file-list-form.schema';
import {
  applyFileListEventToCache,
  createFileList,
  updateFileList,
  uploadOptionFile,
  type OptionUpload,
} from './files.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

type Progress = { done: number; total: number };

const payloadOf = (values: FileListFormValues) => ({
  name: values.name,
  message: values.message,
  options: values.options.map((option) => ({
    ...(option.optionId !== null && { id: option.optionId }),
    name: option.name,
    ...(option.file?.type && { mediaType: option.file.type }),
  })),
});

// The files to send once the list is saved: kept options by id, new ones in the order they were
// added (the API answers options oldest first, so the new ones come last, in that order).
const uploadsFor = (options: OptionFormValues[], saved: FileListView): OptionUpload[] => {
  const keptIds = new Set(options.flatMap((option) => option.optionId ?? []));
  const added = saved.options.filter((option) => !keptIds.has(option.id));
  let next = 0;
  return options.flatMap((option) => {
    const optionId = option.optionId ?? added[next++]?.id;
    return option.file && optionId !== undefined
      ? [{ optionId, name: option.name, file: option.file }]
      : [];
  });
};

const OptionRow = ({
  form,
  index,
  isBusy,
  onRemove,
}: {
  form: UseFormReturn<FileListFormValues>;
  index: number;
  isBusy: boolean;
  onRemove: () => void;
}) => {
  const { t } = useTranslation();
  const {
    register,
    control,
    getValues,
    setValue,
    watch,
    formState: { errors, isSubmitted },
  } = form;
  const option = watch(`options.${index}`);
  const nameError = errors.options?.[index]?.name?.message;
  const fileError = errors.options?.[index]?.file?.message;
  const position = index + 1;

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>, onChange: (file: File) => void) => {
    const chosen = event.target.files?.[0];
    // Let the same file be chosen again after a change.
    event.target.value = '';
    if (!chosen) return;
    onChange(chosen);
    if (!getValues(`options.${index}.name`).trim())
      setValue(`options.${index}.name`, baseName(chosen.name), { shouldValidate: isSubmitted });
  };

  const fileLabel = () => {
    if (option.file)
      return <span data-testid={`file-option-name-${index}`}>{option.file.name}</span>;
    if (option.currentPath)
      return (
        <>
          {t('files.dialog.currentFile')}{' '}
          <Link href={option.currentUrl ?? undefined} target="_blank" rel="noopener">
            {currentFileName(option)}
          </Link>
        </>
      );
    return t('files.dialog.noFile');
  };

  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      role="group"
      aria-label={t('files.dialog.option', { position })}
      sx={{
        alignItems: { sm: 'flex-start' },
      }}
    >
      <TextField
        {...registerMui(register, `options.${index}.name`)}
        label={t('files.dialog.optionName')}
        size="small"
        autoComplete="off"
        disabled={isBusy}
        sx={{ flex: 1 }}
        error={Boolean(nameError)}
        helperText={nameError ? t(nameError) : undefined}
      />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Controller
          name={`options.${index}.file`}
          control={control}
          render={({ field }) => (
            <Button
              component="label"
              variant="outlined"
              size="small"
              startIcon={<AttachFileIcon />}
              disabled={isBusy}
            >
              {option.file || option.currentPath
                ? t('files.dialog.changeFile')
                : t('files.dialog.chooseFile')}
              <input
                hidden
                type="file"
                accept={ACCEPTED_EXTENSIONS}
                data-testid={`file-option-input-${index}`}
                aria-label={t('files.dialog.chooseFileFor', { position })}
                onChange={(event) => onFileChosen(event, field.onChange)}
              />
            </Button>
          )}
        />
        <Typography
          variant="body2"
          noWrap
          sx={{
            color: 'text.secondary',
            mt: 0.5,
          }}
        >
          {fileLabel()}
        </Typography>
        {fileError && <FormHelperText error>{t(fileError)}</FormHelperText>}
      </Box>
      <Tooltip title={t('files.dialog.removeOption', { position })}>
        <span>
          <IconButton
            aria-label={t('files.dialog.removeOption', { position })}
            onClick={onRemove}
            disabled={isBusy}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
};

const FileListForm = ({ fileList }: { fileList: FileListView | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Once saved, a failed upload leaves the dialog on the saved list: saving again edits it.
  const [saved, setSaved] = useState(fileList);
  const [progress, setProgress] = useState<Progress | null>(null);
  const form = useForm<FileListFormValues>({
    resolver: zodResolver(fileListFormSchema),
    defaultValues: toFormValues(fileList),
  });
  const {
    control,
    reset,
    formState: { errors },
  } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'options' });

  const publish = (record: FileListView) =>
    applyFileListEventToCache(queryClient, {
      action: fileList ? 'update' : 'create',
      files: record,
    });

  // The files go one request each, after the list is saved, so progress shows file by file. One
  // that fails leaves the dialog on the saved list, the files not sent still chosen.
  const sendFiles = async (record: FileListView, uploads: OptionUpload[]) => {
    let latest = record;
    const pending = new Map(uploads.map((upload) => [upload.optionId, upload.file]));
    try {
      for (const [done, upload] of uploads.entries()) {
        setProgress({ done, total: uploads.length });
        latest = await uploadOptionFile(record.id, upload);
        pending.delete(upload.optionId);
      }
      return latest;
    } catch (error) {
      setSaved(latest);
      publish(latest);
      reset(toFormValues(latest, pending));
      throw error;
    } finally {
      setProgress(null);
    }
  };

  const save = useDialogSave(form, {
    save: async (values) => {
      const record = saved
        ? await updateFileList(saved.id, payloadOf(values))
        : await createFileList(payloadOf(values));
      publish(await sendFiles(record, uploadsFor(values.options, record)));
    },
    savedText: t('files.saved'),
  });
  const { isSubmitting } = save;

  const optionsError = errors.options?.message ?? errors.options?.root?.message;

  return (
    <DialogForm
      title={saved ? t('files.dialog.editTitle') : t('files.dialog.addTitle')}
      {...save}
      submitLabel={saved ? t('common.save') : t('files.dialog.add')}
    >
      <Stack spacing={2}>
        <FormText
          form={form}
          name="name"
          label={t('files.dialog.name')}
          autoFocus
          disabled={isSubmitting}
        />
        <FormText
          form={form}
          name="message"
          label={t('files.dialog.message')}
          multiline
          minRows={3}
          disabled={isSubmitting}
        />
        <Typography variant="subtitle2">{t('files.dialog.files')}</Typography>
        {fields.map((field, index) => (
          <OptionRow
            key={field.id}
            form={form}
            index={index}
            isBusy={isSubmitting}
            onRemove={() => remove(index)}
          />
        ))}
        {optionsError && <FormHelperText error>{t(optionsError)}</FormHelperText>}
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => append(emptyOption())}
            disabled={isSubmitting || fields.length >= FILE_LIST_MAX_OPTIONS}
          >
            {t('files.dialog.addOption')}
          </Button>
        </Box>
        {progress && (
          <Box role="status">
            <Typography variant="body2">
              {t('files.dialog.uploading', {
                current: progress.done + 1,
                total: progress.total,
              })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={(progress.done / progress.total) * 100}
              aria-label={t('files.dialog.uploadProgress')}
            />
          </Box>
        )}
      </Stack>
    </DialogForm>
  );
};

// The "file list" dialog (SPEC §2 modals); sessionKey gives every opening a fresh form. It stays
// open while the list is saved and its files go up.
export const FileListDialog = ({
  open,
  fileList,
  sessionKey,
  onClose,
}: {
  open: boolean;
  fileList: FileListView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md">
    <FileListForm fileList={fileList} />
  </DialogFrame>
);
