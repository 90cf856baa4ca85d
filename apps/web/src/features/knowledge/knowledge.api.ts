import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  filesContract,
  knowledgeContract,
  type KnowledgeDocument,
  type KnowledgeEvent,
  type KnowledgeSourceInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { setLiveData } from '../../lib/paged-cache';

// Issue 40: the company's knowledge base (admins). The list is read whole and kept current by the
// company-{id}-knowledge events, which carry each document's status and progress as it is read and
// embedded in the background; the search box asks GET /knowledge/search.

const documentsKey = ['knowledge', 'documents'] as const;

type DocumentList = { documents: KnowledgeDocument[] };

// The API's order: newest first.
const newestFirst = (a: KnowledgeDocument, b: KnowledgeDocument) => b.id - a.id;

const applyEvent = (data: DocumentList | undefined, event: KnowledgeEvent) => {
  if (!data) return data;
  const gone = event.action === 'delete' ? event.id : event.document.id;
  const others = data.documents.filter((doc) => doc.id !== gone);
  return {
    documents: event.action === 'delete' ? others : [...others, event.document].sort(newestFirst),
  };
};

const applyToCache = (queryClient: QueryClient, event: KnowledgeEvent) =>
  setLiveData<DocumentList>(queryClient, documentsKey, (data) => applyEvent(data, event));

export const useKnowledgeDocuments = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<KnowledgeEvent>('knowledge', (event) => {
    if (event?.action === 'delete' ? typeof event.id === 'number' : event?.document)
      applyToCache(queryClient, event);
  });
  return useQuery({
    queryKey: documentsKey,
    queryFn: () => call(knowledgeContract.listKnowledgeDocuments),
    staleTime: 0,
    meta: { silent: true },
  });
};

// A change the API answered with the document: in the list at once (its events follow).
const useDocumentChange = <Input>(change: (input: Input) => Promise<KnowledgeDocument>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (document) => applyToCache(queryClient, { action: 'update', document }),
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
  return (id: number) => applyToCache(queryClient, { action: 'delete', id });
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
