import { z } from 'zod';
import {
  FILE_LIST_MAX_OPTIONS,
  FILE_LIST_MESSAGE_MAX,
  FILE_LIST_NAME_MAX,
  FILE_LIST_NAME_MIN,
  FILE_LIST_OPTION_NAME_MAX,
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
  type FileListView,
} from '@atendi/shared';

// What the API takes as a list's file (a campaign sends it over WhatsApp).
export const ACCEPTED_EXTENSIONS = messageMediaExtensions.join(',');

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
};

// An i18n key for a file the API would refuse, or undefined.
const fileProblem = (file: File) => {
  if (!(messageMediaExtensions as readonly string[]).includes(extensionOf(file.name)))
    return 'files.validation.fileType';
  if (file.size > MESSAGE_MEDIA_MAX_BYTES) return 'files.validation.fileSize';
  return undefined;
};

// A chosen file's name without its extension: the option's name when none was typed.
export const baseName = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
};

// The stored file as a user would name it: the option's name with the file's extension.
export const currentFileName = (option: { name: string; currentPath: string }) => {
  const extension = extensionOf(option.currentPath);
  return option.name.toLowerCase().endsWith(extension) ? option.name : `${option.name}${extension}`;
};

const optionSchema = z
  .object({
    optionId: z.number().nullable(),
    name: z
      .string()
      .trim()
      .min(1, 'validation.required')
      .max(FILE_LIST_OPTION_NAME_MAX, 'files.validation.optionNameTooLong'),
    file: z.custom<File | null>((value) => value === null || value instanceof File),
    // The stored file of an existing option ('' without one) and its link.
    currentPath: z.string(),
    currentUrl: z.string().nullable(),
  })
  .superRefine((option, context) => {
    if (option.file) {
      const problem = fileProblem(option.file);
      if (problem) context.addIssue({ code: 'custom', path: ['file'], message: problem });
    } else if (!option.currentPath) {
      context.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'files.validation.fileRequired',
      });
    }
  });

// SPEC §5 File list: name required, at least 3 characters; message required. Messages are i18n keys.
export const fileListFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(FILE_LIST_NAME_MIN, 'files.validation.nameLength')
    .max(FILE_LIST_NAME_MAX, 'files.validation.nameLength'),
  message: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(FILE_LIST_MESSAGE_MAX, 'files.validation.messageTooLong'),
  options: z.array(optionSchema).max(FILE_LIST_MAX_OPTIONS, 'files.validation.tooManyFiles'),
});

export type FileListFormValues = z.infer<typeof fileListFormSchema>;
export type OptionFormValues = FileListFormValues['options'][number];

export const emptyOption = (): OptionFormValues => ({
  optionId: null,
  name: '',
  file: null,
  currentPath: '',
  currentUrl: null,
});

// The form for a saved list; files still waiting to go up stay on their options.
export const toFormValues = (
  record: FileListView | null,
  pendingFiles: Map<number, File> = new Map(),
): FileListFormValues => ({
  name: record?.name ?? '',
  message: record?.message ?? '',
  options: record
    ? record.options.map((option) => ({
        optionId: option.id,
        name: option.name,
        file: pendingFiles.get(option.id) ?? null,
        currentPath: option.path,
        currentUrl: option.url,
      }))
    : [emptyOption()],
});
