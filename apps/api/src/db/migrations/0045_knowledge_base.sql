-- The knowledge base's vector search (issue 40) in plain SQL, where pgvector is not installed (neither
-- Debian's PostgreSQL 15 nor PGlite ships it): embeddings are real[] of one length per model.
-- The cosine similarity of two embeddings.
CREATE FUNCTION "knowledge_cosine"(a real[], b real[]) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE WHEN sum(x::float8 * x) = 0 OR sum(y::float8 * y) = 0 THEN 0
              ELSE sum(x::float8 * y) / sqrt(sum(x::float8 * x) * sum(y::float8 * y)) END
  FROM unnest(a, b) AS t(x, y)
$$;
--> statement-breakpoint
-- The signs of an embedding's components as bits (1: positive): the Hamming distance of two of them,
-- bit_count(a # b), is a cheap estimate of the angle between the vectors, to shortlist passages.
CREATE FUNCTION "knowledge_signs"(a real[]) RETURNS bit varying
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)::varbit
  FROM unnest(a) WITH ORDINALITY AS t(x, i)
$$;
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"page" integer,
	"content" text NOT NULL,
	"embedding" real[] NOT NULL,
	"embedding_model" text NOT NULL,
	"dimensions" integer NOT NULL,
	"signs" bit varying GENERATED ALWAYS AS (knowledge_signs(embedding)) STORED,
	"tsv_es" "tsvector" GENERATED ALWAYS AS (to_tsvector('spanish'::regconfig, content)) STORED,
	"tsv_en" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"kind" text,
	"stored_name" text,
	"size" bigint,
	"file_list_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"version" integer DEFAULT 1 NOT NULL,
	"source_stamp" text,
	"chunks" integer DEFAULT 0 NOT NULL,
	"embedding_model" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_document_id_knowledge_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_file_list_id_file_lists_id_fk" FOREIGN KEY ("file_list_id") REFERENCES "public"."file_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunks_document_id_ordinal_index" ON "knowledge_chunks" USING btree ("document_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_company_id_embedding_model_dimensions_index" ON "knowledge_chunks" USING btree ("company_id","embedding_model","dimensions");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tsv_es_index" ON "knowledge_chunks" USING gin ("tsv_es");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tsv_en_index" ON "knowledge_chunks" USING gin ("tsv_en");--> statement-breakpoint
CREATE INDEX "knowledge_documents_company_id_id_index" ON "knowledge_documents" USING btree ("company_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_documents_quick_messages_unique" ON "knowledge_documents" USING btree ("company_id") WHERE "knowledge_documents"."source" = 'quick-messages';--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_documents_file_list_unique" ON "knowledge_documents" USING btree ("file_list_id");