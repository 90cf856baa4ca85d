CREATE TABLE "prompt_knowledge_documents" (
	"prompt_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	CONSTRAINT "prompt_knowledge_documents_prompt_id_document_id_pk" PRIMARY KEY("prompt_id","document_id")
);
--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "knowledge" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_knowledge_documents" ADD CONSTRAINT "prompt_knowledge_documents_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_knowledge_documents" ADD CONSTRAINT "prompt_knowledge_documents_document_id_knowledge_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_knowledge_documents_document_id_index" ON "prompt_knowledge_documents" USING btree ("document_id");