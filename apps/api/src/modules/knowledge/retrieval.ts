import { eq, sql } from 'drizzle-orm';
import {
  KNOWLEDGE_SEARCH_DEFAULT,
  type KnowledgePassage,
  type KnowledgeSearchResult,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { queryRows } from '../../db/client';
import { knowledgeChunks } from '../../db/schema';
import { clientFor, embedTexts } from '../prompts';

// Hybrid retrieval over one company's passages, in one SQL statement on PostgreSQL and PGlite alike:
// - full text: the question as websearch_to_tsquery in the Spanish and in the English configuration
//   against the passages' generated tsvectors (GIN indexes). A question is not a query: a passage
//   matches when it has any of its words (the query's ANDs made ORs, unless it excludes a word with
//   `-`), ranked by ts_rank_cd of both configurations (each scaled into 0–1), and those with every
//   word (the query as typed) first;
// - meaning: the question embedded with the configured model, and the cosine similarity of its vector
//   with every passage embedded by the same model and dimensions, computed in SQL by
//   knowledge_cosine() (migration 0045: unnest of both arrays, no extension needed);
// - the two rankings (their best RETRIEVAL_CANDIDATES each) merged by reciprocal rank fusion,
//   1 / (RRF_K + rank) summed over the rankings a passage is in.
// Every part is filtered by the company: another company's passages are never read.

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound'>;

const RETRIEVAL_CANDIDATES = 50;
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
    const client = await clientFor(deps, companyId);
    const { vectors } = await embedTexts(client, deps.config.openAi.embeddingModel, [question]);
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
  options: { limit?: number } = {},
): Promise<KnowledgeSearchResult> => {
  const limit = options.limit ?? KNOWLEDGE_SEARCH_DEFAULT;
  const [any] = await deps.db
    .select({ id: knowledgeChunks.id })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.companyId, companyId))
    .limit(1);
  // Nothing to search: no provider is asked.
  if (!any) return { passages: [], semantic: false };
  const vector = await questionVector(deps, companyId, question);
  const model = deps.config.openAi.embeddingModel;
  const byVector = vector
    ? sql`select c.id, knowledge_cosine(c.embedding, ${vectorLiteral(vector)}::real[]) as score
          from knowledge_chunks c
          where c.company_id = ${companyId} and c.embedding_model = ${model}
            and c.dimensions = ${vector.length}
          order by score desc nulls last, c.id
          limit ${RETRIEVAL_CANDIDATES}`
    : sql`select null::int as id, null::float8 as score where false`;
  const rows = await queryRows<Row>(
    deps.db,
    sql`with typed as (
          select websearch_to_tsquery('spanish', ${question}) as es,
                 websearch_to_tsquery('english', ${question}) as en
        ),
        question as (
          select es, en,
                 case when es::text like '%!%' then es
                      else replace(es::text, ' & ', ' | ')::tsquery end as es_any,
                 case when en::text like '%!%' then en
                      else replace(en::text, ' & ', ' | ')::tsquery end as en_any
          from typed
        ),
        by_text as (
          select c.id,
                 ts_rank_cd(c.tsv_es, q.es_any, 32) + ts_rank_cd(c.tsv_en, q.en_any, 32)
                   + case when c.tsv_es @@ q.es or c.tsv_en @@ q.en then 2 else 0 end as score
          from knowledge_chunks c, question q
          where c.company_id = ${companyId} and (c.tsv_es @@ q.es_any or c.tsv_en @@ q.en_any)
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
