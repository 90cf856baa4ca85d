import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  KNOWLEDGE_SEARCH_DEFAULT,
  type KnowledgePassage,
  type KnowledgeSearchResult,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { queryRows } from '../../db/client';
import { knowledgeChunks } from '../../db/schema';
import { assertTokensLeft, clientFor, embedTexts, meterAi } from '../prompts';

// Hybrid retrieval over one company's passages, in one SQL statement on PostgreSQL and PGlite alike:
// - full text: the question as websearch_to_tsquery in the Spanish and in the English configuration
//   against the passages' generated tsvectors (GIN indexes). A question is not a query: a passage
//   matches when it has any of the question's words that is no common word (stop word) in either
//   language, joined by websearch's "or" (unless the question quotes a phrase or excludes a word with
//   `-`: then as typed), ranked by ts_rank_cd of both configurations (each scaled into 0–1), and those
//   with every word (the question as typed) first;
// - meaning: the question embedded with the configured model, and the cosine similarity of its vector
//   with the passages embedded by the same model and dimensions, computed in SQL by knowledge_cosine()
//   (migration 0045: unnest of both arrays, no extension needed). Computed for every passage it costs
//   about 40 ms per 1,000 passages of 256 dimensions, 220 ms at 1,536; so the passages are first
//   shortlisted by the Hamming distance of the signs of their components (`signs`, a generated bit
//   string: one XOR and a bit count each) and the exact similarity computed for the nearest
//   VECTOR_SHORTLIST only (all of them for a company with fewer), and for the passages the words
//   found, which the signs may have missed (a short question's signs are a rough guide);
// - the two rankings (their best RETRIEVAL_CANDIDATES each) merged by reciprocal rank fusion,
//   1 / (RRF_K + rank) summed over the rankings a passage is in.
// Every part is filtered by the company: another company's passages are never read.

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound'>;

const RETRIEVAL_CANDIDATES = 50;
// Passages whose exact similarity is computed: those nearest by the signs of their embeddings.
const VECTOR_SHORTLIST = 200;
// The usual constant of reciprocal rank fusion (Cormack et al.): a first place is worth 1/61.
const RRF_K = 60;

type Row = {
  chunk_id: number;
  document_id: number;
  document_name: string;
  page: number | null;
  ordinal: number;
  content: string;
  score: number;
  text_score: number | null;
  similarity: number | null;
};

const vectorLiteral = (vector: number[]) => `{${vector.join(',')}}`;

// The question's embedding, or null when it cannot be had (no provider, a failure): text search then
// answers alone.
const questionVector = async (deps: Deps, companyId: number, question: string) => {
  try {
    await assertTokensLeft(deps, companyId);
    const client = await clientFor(deps, companyId);
    const { vectors, usage } = await embedTexts(client, deps.config.openAi.embeddingModel, [
      question,
    ]);
    await meterAi(deps, companyId, 'embedding', usage);
    return vectors[0];
  } catch {
    return null;
  }
};

// The passages of the company's knowledge base that best answer `question`, best first. What the AI
// agents call (issue 40, item 2) and what GET /knowledge/search answers.
export const searchKnowledge = async (
  deps: Deps,
  companyId: number,
  question: string,
  options: { limit?: number; documentIds?: number[] } = {},
): Promise<KnowledgeSearchResult> => {
  const limit = options.limit ?? KNOWLEDGE_SEARCH_DEFAULT;
  // An agent given some documents searches only those.
  const ids = options.documentIds?.length ? options.documentIds : null;
  const ofDocuments = ids ? sql`and c.document_id = any(${`{${ids.join(',')}}`}::int[])` : sql``;
  const [any] = await deps.db
    .select({ id: knowledgeChunks.id })
    .from(knowledgeChunks)
    .where(
      and(
        eq(knowledgeChunks.companyId, companyId),
        ids ? inArray(knowledgeChunks.documentId, ids) : undefined,
      ),
    )
    .limit(1);
  // Nothing to search: no provider is asked.
  if (!any) return { passages: [], semantic: false };
  const vector = await questionVector(deps, companyId, question);
  const model = deps.config.openAi.embeddingModel;
  const literal = vector && vectorLiteral(vector);
  // The passages of the same model nearest by the signs of their components (Hamming distance), then
  // the exact cosine similarity of those.
  // The exact similarity of the passages of the same model nearest by the signs of their components
  // (Hamming distance), and of those the words found (their similarity counts even where the signs
  // did not pick them).
  const byVector = vector
    ? sql`select near.id, knowledge_cosine(c.embedding, ${literal}::real[]) as score
          from (
            (select c.id
             from knowledge_chunks c
             where c.company_id = ${companyId} and c.embedding_model = ${model}
               and c.dimensions = ${vector.length} ${ofDocuments}
             order by bit_count(c.signs # knowledge_signs(${literal}::real[])), c.id
             limit ${VECTOR_SHORTLIST})
            union
            select id from by_text
          ) near
          join knowledge_chunks c on c.id = near.id
          where c.embedding_model = ${model} and c.dimensions = ${vector.length}
          order by score desc, near.id
          limit ${RETRIEVAL_CANDIDATES}`
    : sql`select null::int as id, null::float8 as score where false`;
  // A question is not a query: a passage with any of its words is found (its words that are no
  // common word in either language, joined by "or"), unless it quotes a phrase or excludes a word.
  const exact = /"|(^|\s)-\S/.test(question);
  const words = [...new Set(question.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter(Boolean);
  const rows = await queryRows<Row>(
    deps.db,
    sql`with words as (
          select string_agg(w, ' or ') as any_words
          from unnest(${`{${words.join(',')}}`}::text[]) as w
          where to_tsvector('spanish', w) <> ''::tsvector
            and to_tsvector('english', w) <> ''::tsvector
        ),
        -- Built once, not again for every passage it is compared with.
        question as materialized (
          select websearch_to_tsquery('spanish', ${question}) as es,
                 websearch_to_tsquery('english', ${question}) as en,
                 case when ${exact} then websearch_to_tsquery('spanish', ${question})
                      else websearch_to_tsquery('spanish', coalesce(any_words, '')) end as es_any,
                 case when ${exact} then websearch_to_tsquery('english', ${question})
                      else websearch_to_tsquery('english', coalesce(any_words, '')) end as en_any
          from words
        ),
        by_text as (
          select c.id,
                 ts_rank_cd(c.tsv_es, q.es_any, 32) + ts_rank_cd(c.tsv_en, q.en_any, 32)
                   + case when c.tsv_es @@ q.es or c.tsv_en @@ q.en then 2 else 0 end as score
          from knowledge_chunks c, question q
          where c.company_id = ${companyId} ${ofDocuments}
            and (c.tsv_es @@ q.es_any or c.tsv_en @@ q.en_any)
          order by score desc, c.id
          limit ${RETRIEVAL_CANDIDATES}
        ),
        by_vector as (${byVector}),
        text_ranked as (
          select id, score, row_number() over (order by score desc, id) as rank from by_text
        ),
        vector_ranked as (
          select id, score, row_number() over (order by score desc, id) as rank from by_vector
        ),
        fused as (
          select coalesce(t.id, v.id) as id, t.score as text_score, v.score as similarity,
                 coalesce(1.0 / (${RRF_K} + t.rank), 0) + coalesce(1.0 / (${RRF_K} + v.rank), 0)
                   as score
          from text_ranked t full join vector_ranked v on v.id = t.id
        )
        select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.ordinal,
               c.content, f.score::float8 as score, f.text_score::float8 as text_score,
               f.similarity::float8 as similarity
        from fused f
        join knowledge_chunks c on c.id = f.id and c.company_id = ${companyId}
        join knowledge_documents d on d.id = c.document_id and d.company_id = ${companyId}
        order by f.score desc, f.similarity desc nulls last, c.id
        limit ${limit}`,
  );
  const passages: KnowledgePassage[] = rows.map((row) => ({
    chunkId: Number(row.chunk_id),
    documentId: Number(row.document_id),
    documentName: row.document_name,
    page: row.page === null ? null : Number(row.page),
    ordinal: Number(row.ordinal),
    text: row.content,
    score: Number(row.score),
    textScore: row.text_score === null ? null : Number(row.text_score),
    similarity: row.similarity === null ? null : Number(row.similarity),
  }));
  return { passages, semantic: vector !== null };
};
