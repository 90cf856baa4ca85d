import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  filesContract,
  knowledgeContract,
  type KnowledgeDocument,
  type KnowledgeSourceInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { applyKnowledgeEventToCache } from '../../api/queries/knowledge';

// Issue 40: the company's knowledge base (admins). The list is read whole and kept current by the
// company-{id}-knowledge events, which carry each document's status and progress as it is read and
// embedded in the background; the search box asks GET /knowledge/search.

// A change the API answered with the document: in the list at once (its events follow).
const useDocumentChange = <Input>(change: (input: Input) => Promise<KnowledgeDocument>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (document) =>
      applyKnowledgeEventToCache(queryClient, { action: 'update', document }),
    // The page says a refusal itself.
    meta: { silent: true },
  });
};

const fileForm = (file: File) => {
  const body = new FormData();
  body.append('file', file);
  return body;
};

export const useUploadDocument = () =>
  useDocumentChange((file: File) =>
    call(knowledgeContract.uploadKnowledgeDocument, { body: fileForm(file) }),
  );

export const useReplaceDocument = () =>
  useDocumentChange(({ id, file }: { id: number; file: File }) =>
    call(knowledgeContract.replaceKnowledgeDocument, { params: { id }, body: fileForm(file) }),
  );

export const useAddSource = () =>
  useDocumentChange((body: KnowledgeSourceInput) =>
    call(knowledgeContract.addKnowledgeSource, { body }),
  );

export const useRenameDocument = () =>
  useDocumentChange(({ id, name }: { id: number; name: string }) =>
    call(knowledgeContract.renameKnowledgeDocument, { params: { id }, body: { name } }),
  );

export const useRefreshDocument = () =>
  useDocumentChange((id: number) =>
    call(knowledgeContract.refreshKnowledgeDocument, { params: { id } }),
  );

export const deleteDocument = (id: number) =>
  call(knowledgeContract.deleteKnowledgeDocument, { params: { id } });

export const useForgetDocument = () => {
  const queryClient = useQueryClient();
  return (id: number) => applyKnowledgeEventToCache(queryClient, { action: 'delete', id });
};

export const searchKnowledge = (q: string) =>
  call(knowledgeContract.searchKnowledge, { query: { q } });

// The company's file lists, for "add a source".
export const useFileListOptions = (enabled: boolean) =>
  useQuery({
    queryKey: ['knowledge', 'file-lists'],
    queryFn: () => call(filesContract.listAllFileLists),
    enabled,
    staleTime: 0,
    meta: { silent: true },
  });
