import {
  conversationExportsContract,
  type ConversationExport,
  type ConversationExportCreateInput,
} from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http-client';
import { saveCsv, saveFile } from '../../lib/save-file';

// Issue 38: the company's conversation exports (admins), built in the background: the list with
// their progress, asking for one, downloading a built one and deleting one (which stops a build).
const exportsKey = ['conversation-exports'] as const;

type ExportList = { exports: ConversationExport[] };

// While an export waits or is being built, the list is read again this often.
const EXPORT_REFRESH_MS = 2000;

export const isBuilding = (item: ConversationExport) =>
  item.status === 'pending' || item.status === 'running';

export const useConversationExports = () =>
  useQuery({
    queryKey: exportsKey,
    queryFn: () => call(conversationExportsContract.listConversationExports),
    staleTime: 0,
    // Only while something is on its way: once every export is done or failed, the list rests.
    refetchInterval: (query) =>
      query.state.data?.exports.some(isBuilding) ? EXPORT_REFRESH_MS : false,
    // The tab says a failure itself.
    meta: { silent: true },
  });

// The new export heads the list at once (waiting, so the list starts following it), then the list
// as the server has it.
export const useCreateConversationExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConversationExportCreateInput) =>
      call(conversationExportsContract.createConversationExport, { body }),
    onSuccess: (created) => {
      queryClient.setQueryData<ExportList>(
        exportsKey,
        (list) =>
          list && {
            exports: [created, ...list.exports.filter((item) => item.id !== created.id)],
          },
      );
      return queryClient.invalidateQueries({ queryKey: exportsKey, exact: true });
    },
    // The dialog says a refusal under its fields.
    meta: { silent: true },
  });
};

export const deleteConversationExport = (id: number) =>
  call(conversationExportsContract.deleteConversationExport, { params: { id } });

// After deleting: gone from the list at once, then the list as the server has it.
export const useForgetConversationExport = () => {
  const queryClient = useQueryClient();
  return (id: number) => {
    queryClient.setQueryData<ExportList>(
      exportsKey,
      (list) => list && { exports: list.exports.filter((item) => item.id !== id) },
    );
    void queryClient.invalidateQueries({ queryKey: exportsKey, exact: true });
  };
};

const extensionOf = (item: ConversationExport) => (item.includeMedia ? 'zip' : item.format);

// The client hands back the body only (no Content-Disposition), so the name is made here.
const exportFileName = (item: ConversationExport) =>
  `conversaciones-${item.dateFrom}-${item.dateTo}.${extensionOf(item)}`;

// The built file, fetched with the session token and handed to the browser's downloads the way the
// chat saves a transcript (lib/save-file.ts). A ZIP or JSON Lines arrives as a Blob (api/http-client.ts
// reads bodies that are not text as bytes); a CSV is read as text and gets its BOM back (reading text
// drops it) so that Excel reads the accents.
export const downloadConversationExport = async (item: ConversationExport) => {
  const body: unknown = await call(conversationExportsContract.downloadConversationExport, {
    params: { id: item.id },
  });
  const name = exportFileName(item);
  if (body instanceof Blob) {
    saveFile(body, name);
    return;
  }
  // A ZIP or JSON Lines read as anything but bytes is not the file: the toast says "unknown error".
  if (item.includeMedia || item.format === 'jsonl') throw new Error();
  if (typeof body !== 'string' && body !== undefined) throw new Error();
  saveCsv(body ?? '', name);
};
