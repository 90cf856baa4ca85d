import { defineRoutes } from '../contract';
import {
  knowledgeDocumentListSchema,
  knowledgeDocumentSchema,
  knowledgeRenameSchema,
  knowledgeSearchQuery,
  knowledgeSearchResultSchema,
  knowledgeSourceSchema,
} from '../knowledge';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(knowledgeDocumentSchema);

// Issue 40: the company's knowledge base (admins of a company whose plan has useOpenAi).
export const knowledgeContract = defineRoutes('knowledge', {
  listKnowledgeDocuments: {
    method: 'GET',
    path: '/knowledge/documents',
    summary: 'The knowledge base’s documents, newest first, with their status and progress',
    response: okResponse(knowledgeDocumentListSchema),
  },
  getKnowledgeDocument: {
    method: 'GET',
    path: '/knowledge/documents/:id',
    summary: 'One document of the knowledge base',
    params: idParam,
    response: one,
  },
  uploadKnowledgeDocument: {
    method: 'POST',
    path: '/knowledge/documents',
    summary: 'Upload a PDF, DOCX, TXT or Markdown document (read and embedded in the background)',
    description:
      'multipart/form-data with one `file` part, and optionally a `name` field. The type is checked by the content, not only the extension.',
    consumes: ['multipart/form-data'],
    response: createdResponse(knowledgeDocumentSchema),
  },
  addKnowledgeSource: {
    method: 'POST',
    path: '/knowledge/sources',
    summary: 'Add the company’s quick messages or one of its file lists to the knowledge base',
    body: knowledgeSourceSchema,
    response: createdResponse(knowledgeDocumentSchema),
  },
  renameKnowledgeDocument: {
    method: 'PUT',
    path: '/knowledge/documents/:id',
    summary: 'Rename a document',
    params: idParam,
    body: knowledgeRenameSchema,
    response: one,
  },
  replaceKnowledgeDocument: {
    method: 'POST',
    path: '/knowledge/documents/:id/file',
    summary: 'Replace an uploaded document’s file (its passages are embedded again)',
    description: 'multipart/form-data with one `file` part.',
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
  refreshKnowledgeDocument: {
    method: 'POST',
    path: '/knowledge/documents/:id/refresh',
    summary: 'Read and embed a document again (a source’s current content, or another model)',
    params: idParam,
    response: one,
  },
  deleteKnowledgeDocument: {
    method: 'DELETE',
    path: '/knowledge/documents/:id',
    summary: 'Delete a document, its file and its passages',
    params: idParam,
    response: noContentResponse,
  },
  searchKnowledge: {
    method: 'GET',
    path: '/knowledge/search',
    summary: 'The passages that best answer a question (full-text and vector search, fused)',
    query: knowledgeSearchQuery,
    response: okResponse(knowledgeSearchResultSchema),
  },
});
