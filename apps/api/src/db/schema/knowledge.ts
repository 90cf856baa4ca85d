import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { KnowledgeFileKind, KnowledgeSource, KnowledgeStatus } from '@atendi/shared';
import { createdAt, id, timestamps } from './_columns';
import { companies } from './companies';
import { fileLists } from './file-lists';
import { prompts } from './queues';
import { users } from './users';

// The company's knowledge base (issue 40, modules/knowledge): what each document is, where its ingest
// stands, and its passages with their embeddings and full-text vectors.

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const varbit = customType<{ data: string }>({ dataType: () => 'bit varying' });

export const knowledgeDocuments = pgTable(
  'knowledge_documents',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    source: text().$type<KnowledgeSource>().notNull(),
    kind: text().$type<KnowledgeFileKind>(),
    // The uploaded file, in the company's folder of the file store (counted in its storage).
    storedName: text(),
    size: bigint({ mode: 'number' }),
    // A file list read as a document goes with the list.
    fileListId: integer().references(() => fileLists.id, { onDelete: 'cascade' }),
    status: text().$type<KnowledgeStatus>().notNull().default('queued'),
    progress: integer().notNull().default(0),
    error: text(),
    // Raised by every change that needs a new ingest (a new file, a refresh): the ingest job carries
    // the version it was queued for, and only that version's ingest may store its passages.
    version: integer().notNull().default(1),
    // A source's content as its last ingest found it (a hash of its rows and their times): the
    // `knowledge-sources` job reads it again when it differs.
    sourceStamp: text(),
    chunks: integer().notNull().default(0),
    embeddingModel: text(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    index().on(t.companyId, t.id),
    // A source is in the knowledge base once: the quick messages, each file list.
    uniqueIndex('knowledge_documents_quick_messages_unique')
      .on(t.companyId)
      .where(sql`${t.source} = 'quick-messages'`),
    uniqueIndex('knowledge_documents_file_list_unique').on(t.fileListId),
  ],
);

// A passage of a document: its text, where it is (ordinal, the PDF page), its embedding (the model's
// vector as real[], with the model and its dimensions: pgvector can index a cast of it later), the
// signs of the embedding's components as bits (the vector search's shortlist, by Hamming distance)
// and its full-text vectors in Spanish and English; PostgreSQL keeps the generated columns itself.
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    documentId: integer()
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
    ordinal: integer().notNull(),
    page: integer(),
    content: text().notNull(),
    embedding: real().array().notNull(),
    embeddingModel: text().notNull(),
    dimensions: integer().notNull(),
    signs: varbit().generatedAlwaysAs(sql`knowledge_signs(embedding)`),
    tsvEs: tsvector().generatedAlwaysAs(sql`to_tsvector('spanish'::regconfig, content)`),
    tsvEn: tsvector().generatedAlwaysAs(sql`to_tsvector('english'::regconfig, content)`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.documentId, t.ordinal),
    index().on(t.companyId, t.embeddingModel, t.dimensions),
    index('knowledge_chunks_tsv_es_index').using('gin', t.tsvEs),
    index('knowledge_chunks_tsv_en_index').using('gin', t.tsvEn),
  ],
);

// The documents an AI agent whose knowledge is 'selected' answers from.
export const promptKnowledgeDocuments = pgTable(
  'prompt_knowledge_documents',
  {
    promptId: integer()
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    documentId: integer()
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.documentId] }), index().on(t.documentId)],
);
