import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { knowledgeContract, type KnowledgeDocument, type KnowledgeEvent } from '@atendi/shared';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';
import { setLiveData } from '../../lib/paged-cache';

// Issue 40: the company's knowledge base documents (admins), read whole and kept current by the
// company-{id}-knowledge events: the knowledge page lists them, the AI agent form offers them.

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

export const applyKnowledgeEventToCache = (queryClient: QueryClient, event: KnowledgeEvent) =>
  setLiveData<DocumentList>(queryClient, documentsKey, (data) => applyEvent(data, event));

export const useKnowledgeDocuments = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<KnowledgeEvent>('knowledge', (event) => {
    if (event?.action === 'delete' ? typeof event.id === 'number' : event?.document)
      applyKnowledgeEventToCache(queryClient, event);
  });
  return useQuery({
    queryKey: documentsKey,
    queryFn: () => call(knowledgeContract.listKnowledgeDocuments),
    staleTime: 0,
    meta: { silent: true },
  });
};
