import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  filesContract,
  type FileListEvent,
  type FileListsPage,
  type FileListUpdateInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type FilesData = InfiniteData<FileListsPage, number>;

const filesKeys = {
  lists: ['files', 'page'] as const,
  list: (search: string) => ['files', 'page', search] as const,
};

const fetchFilesPage = (searchParam: string, pageNumber: number) =>
  call(filesContract.listFileLists, { query: { searchParam, pageNumber } });
// POST takes the same body as PUT; a new list's options carry no id.
export const createFileList = (input: FileListUpdateInput) =>
  call(filesContract.createFileList, { body: input });
export const updateFileList = (id: number, input: FileListUpdateInput) =>
  call(filesContract.updateFileList, { params: { id }, body: input });
export const deleteFileList = (id: number) =>
  call(filesContract.deleteFileList, { params: { id } });

export type OptionUpload = { optionId: number; name: string; file: File };

// SPEC §7 form: fileId and id name the option, typeArch the kind of upload, files the file.
export const uploadOptionFile = (listId: number, upload: OptionUpload) => {
  const body = new FormData();
  body.append('typeArch', 'fileList');
  body.append('fileId', String(upload.optionId));
  body.append('id', String(upload.optionId));
  body.append('name', upload.name);
  body.append('mediaType', upload.file.type);
  body.append('files', upload.file);
  return call(filesContract.uploadFileListFiles, { params: { id: listId }, body });
};

export const filesList: PagedSource<'files', FileListsPage> = {
  queryKey: filesKeys.list,
  rowsKey: 'files',
  fetchPage: fetchFilesPage,
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §7 company-{id}-file: create and update insert or replace, delete removes.
const applyFileListEvent = (
  data: FilesData | undefined,
  event: FileListEvent,
  search: string,
): FilesData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'files', event.fileId);
  const { files: record } = event;
  // A rename can take a list out of the current search.
  if (!matchesSearch(record.name, search)) return removeFromPages(data, 'files', record.id);
  return upsertIntoPages(data, 'files', record, true);
};

export const applyFileListEventToCache = (queryClient: QueryClient, event: FileListEvent) => {
  updatePagedLists<FilesData>(queryClient, filesKeys.lists, (data, search) =>
    applyFileListEvent(data, event, search),
  );
};

export const useFileListLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<FileListEvent>('file', (event) => {
    if (event?.action === 'delete' ? typeof event.fileId === 'number' : event?.files) {
      applyFileListEventToCache(queryClient, event);
    }
  });
};
