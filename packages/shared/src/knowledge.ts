import { z } from 'zod';
import { MB } from './constants';
import { dateTime } from './responses';

// The company's knowledge base (issue 40): documents an admin uploads (PDF, DOCX, TXT, Markdown) and
// the company's own file lists and quick messages, split into passages, embedded through the AI
// provider and searched by text and by meaning together. The AI agents answer from it.

// What a document is made of: an uploaded file, a file list (its name, message, entry names and the
// text of its documents), or the company-wide quick messages (one passage each).
export const knowledgeSources = ['upload', 'file-list', 'quick-messages'] as const;
export type KnowledgeSource = (typeof knowledgeSources)[number];
// The uploaded file's type, as its content says (not only its name).
export const knowledgeFileKinds = ['pdf', 'docx', 'txt', 'md'] as const;
export type KnowledgeFileKind = (typeof knowledgeFileKinds)[number];
// queued → processing (progress %) → ready, or failed with its error; a change queues it again.
export const knowledgeStatuses = ['queued', 'processing', 'ready', 'failed'] as const;
export type KnowledgeStatus = (typeof knowledgeStatuses)[number];

// The extensions an upload may have, each mapped to the kind its content must be.
export const knowledgeExtensions: Readonly<Record<string, KnowledgeFileKind>> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'txt',
  '.md': 'md',
  '.markdown': 'md',
};
export const KNOWLEDGE_DOCUMENT_MAX_BYTES = 20 * MB;
export const KNOWLEDGE_NAME_MAX = 200;
// What the search answers by default, and at most.
export const KNOWLEDGE_SEARCH_DEFAULT = 5;
export const KNOWLEDGE_SEARCH_MAX = 20;

export const knowledgeRenameSchema = z.object({
  name: z.string().trim().min(1).max(KNOWLEDGE_NAME_MAX),
});
export type KnowledgeRenameInput = z.infer<typeof knowledgeRenameSchema>;

// A source from what the company already has.
export const knowledgeSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('quick-messages') }),
  z.object({ type: z.literal('file-list'), fileListId: z.coerce.number().int().positive() }),
]);
export type KnowledgeSourceInput = z.infer<typeof knowledgeSourceSchema>;

export const knowledgeSearchQuery = z.object({
  q: z.string().trim().min(1).max(500),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(KNOWLEDGE_SEARCH_MAX)
    .optional()
    .default(KNOWLEDGE_SEARCH_DEFAULT),
});

export const knowledgeDocumentSchema = z.object({
  id: z.number(),
  name: z.string(),
  source: z.enum(knowledgeSources),
  // The uploaded file's type (null for file lists and quick messages).
  kind: z.enum(knowledgeFileKinds).nullable(),
  // The file list it reads (null otherwise, or once the list is gone).
  fileListId: z.number().nullable(),
  // The uploaded file's size in bytes.
  size: z.number().nullable(),
  status: z.enum(knowledgeStatuses),
  // 0–100 while processing.
  progress: z.number(),
  error: z.string().nullable(),
  // Passages stored (of the last version that finished) and the model that embedded them.
  chunks: z.number(),
  embeddingModel: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type KnowledgeDocument = z.input<typeof knowledgeDocumentSchema>;
export const knowledgeDocumentListSchema = z.object({
  documents: z.array(knowledgeDocumentSchema),
});

export const knowledgePassageSchema = z.object({
  chunkId: z.number(),
  documentId: z.number(),
  documentName: z.string(),
  // The PDF page the passage starts on (null for other kinds).
  page: z.number().nullable(),
  ordinal: z.number(),
  text: z.string(),
  // Reciprocal rank fusion of the two rankings, and each one's own score (null: not found by it).
  score: z.number(),
  textScore: z.number().nullable(),
  similarity: z.number().nullable(),
});
export type KnowledgePassage = z.input<typeof knowledgePassageSchema>;
export const knowledgeSearchResultSchema = z.object({
  passages: z.array(knowledgePassageSchema),
  // false when the question could not be embedded (no provider, or it failed): text search only.
  semantic: z.boolean(),
});
export type KnowledgeSearchResult = z.input<typeof knowledgeSearchResultSchema>;

// The `knowledge` socket channel (admins): a document created or changed (status, progress), or gone.
export type KnowledgeEvent =
  { action: 'update'; document: KnowledgeDocument } | { action: 'delete'; id: number };
