import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  FileListEvent,
  FileListsPage,
  FileListUpdateInput,
  FileListView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

type FilesData = InfiniteData<FileListsPage, number>;

export const filesKeys = {
  lists: ['files', 'page'] as const,
  list: (search: string) => ['files', 'page', search] as const,
};

export const fetchFilesPage = (searchParam: string, pageNumber: number) =>
  api.get<FileListsPage>('/files', { query: { searchParam, pageNumber } });
// POST takes the same body as PUT; a new list's options carry no id.
export const createFileList = (input: FileListUpdateInput) =>
  api.post<FileListView>('/files', input);
export const updateFileList = (id: number, input: FileListUpdateInput) =>
  api.put<FileListView>(`/files/${id}`, input);
export const deleteFileList = (id: number) => api.delete(`/files/${id}`);

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
  return api.post<FileListView>(`/files/uploadList/${listId}`, body);
};

export const filesListQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: filesKeys.list(search),
    queryFn: ({ pageParam }) => fetchFilesPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

export const useFilesList = (search: string) => {
  const query = useInfiniteQuery(filesListQuery(search));
  // Pages are offsets: a live insert can push a row onto the next page, so show each list once.
  const byId = new Map<number, FileListView>();
  query.data?.pages.forEach((page) => page.files.forEach((row) => byId.set(row.id, row)));
  return { ...query, files: [...byId.values()] };
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §7 company-{id}-file: create and update insert or replace, delete removes.
export const applyFileListEvent = (
  data: FilesData | undefined,
  event: FileListEvent,
  search: string,
): FilesData | undefined => {
  if (!data) return data;
  const without = (id: number) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      files: page.files.filter((row) => row.id !== id),
    })),
  });
  if (event.action === 'delete') return without(event.fileId);
  const { files: record } = event;
  // A rename can take a list out of the current search.
  if (!matchesSearch(record.name, search)) return without(record.id);
  const isListed = data.pages.some((page) => page.files.some((row) => row.id === record.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        files: page.files.map((row) => (row.id === record.id ? record : row)),
      })),
    };
  }
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, files: [record, ...first.files] }, ...rest] };
};

export const applyFileListEventToCache = (queryClient: QueryClient, event: FileListEvent) => {
  queryClient
    .getQueryCache()
    .findAll({ queryKey: filesKeys.lists })
    .forEach(({ queryKey }) => {
      const search = String(queryKey[2] ?? '');
      queryClient.setQueryData<FilesData>(queryKey, (data) =>
        applyFileListEvent(data, event, search),
      );
    });
};

export const useFileListLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<FileListEvent>('file', (event) => {
    if (event?.action === 'delete' ? typeof event.fileId === 'number' : event?.files) {
      applyFileListEventToCache(queryClient, event);
    }
  });
};
