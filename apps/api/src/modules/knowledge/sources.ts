import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { queryRows, type Db } from '../../db/client';
import { enqueueJobs } from '../../jobs/queue';
import { ingestQueue } from './ingest-queue';
import { emitDocument } from './knowledge.service';

// A source read again when it changes (issue 40): the company-wide quick messages and the file lists
// are the company's own records, edited on their own pages. Each ingest of a source keeps a stamp of
// what it read (a hash of the rows it reads and their times); the recurring `knowledge-sources` job
// compares each settled source's stamp with its records now and queues a new version's ingest where
// they differ, so a new, changed or deleted answer or file reaches the knowledge base within a minute.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'jobs'>;

export const KNOWLEDGE_SOURCES_JOB = 'knowledge-sources';

// The stamp of the source a knowledge_documents row `d` reads, as SQL.
const stampOf = sql`case d.source
  when 'quick-messages' then (
    select md5(coalesce(string_agg(q.id || '@' || q.updated_at::text, ',' order by q.id), ''))
    from quick_messages q
    where q.company_id = d.company_id and q.geral and q.status)
  when 'file-list' then (
    select md5(f.updated_at::text || '|' || coalesce((
      select string_agg(o.id || '@' || o.updated_at::text || '@' || o.path, ',' order by o.id)
      from file_list_options o where o.file_list_id = f.id), ''))
    from file_lists f
    where f.id = d.file_list_id and f.company_id = d.company_id)
end`;

// What the ingest of a source found, stamped before it reads (a change meanwhile is read next time).
export const stampSource = async (db: Db, documentId: number, version: number) => {
  await db.execute(
    sql`update knowledge_documents d set source_stamp = ${stampOf}
        where d.id = ${documentId} and d.version = ${version} and d.source <> 'upload'`,
  );
};

// The settled sources whose records changed since their last ingest, queued again.
export const refreshChangedSources = async (deps: Deps) => {
  const changed = await deps.db.transaction(async (tx) => {
    const rows = await queryRows<{ id: number; company_id: number; version: number }>(
      tx,
      sql`update knowledge_documents d
          set version = d.version + 1, status = 'queued', progress = 0, error = null,
              updated_at = now()
          where d.source <> 'upload' and d.status in ('ready', 'failed')
            and ${stampOf} is distinct from d.source_stamp
          returning d.id, d.company_id, d.version`,
    );
    await enqueueJobs(
      tx,
      ingestQueue,
      rows.map((row) => ({
        payload: { documentId: Number(row.id), version: Number(row.version) },
        key: `knowledge-document:${row.id}`,
        companyId: Number(row.company_id),
      })),
    );
    return rows;
  });
  if (!changed.length) return;
  deps.jobs.kick(ingestQueue.name);
  for (const row of changed) await emitDocument(deps, Number(row.id));
};
